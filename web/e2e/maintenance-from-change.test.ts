import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { RULE_TYPES } from '@cfs/contracts/monitoring';
import type { Rule } from '@cfs/contracts/rules';
import type { JsonOf } from '../src/lib/json-types';
import {
  api,
  browser,
  createChangeRequest,
  drawer,
  gridRow,
  homeTenantId,
  screenshot,
  searchGrid,
  sessionOf,
  signedInPage,
  updateWorkUnit,
  type ListResponse,
} from './support';

const ADMIN_MAIL = 'admin@cfs.example';
const OPERATOR_MAIL = 'operator@cfs.example';

/**
 * Maintenance as one object: a planned-outage change request approved by its two approvers, each
 * in their own browser, opens a Maintenance rule that Rules shows with a link back to the change.
 */
describe('maintenance from a change request', () => {
  test('both approvers approve a planned-outage change; its Maintenance rule is in Rules and links to the change', async () => {
    const operator = await sessionOf(browser, 'operator');
    const admin = await sessionOf(browser, 'admin');
    const tenantId = homeTenantId(operator);
    const now = Date.now();
    // The operator names the admin approver 1; the admin names the operator approver 2 (nobody names themselves).
    const created = await createChangeRequest(operator, {
      approver1: ADMIN_MAIL,
      plannedOutage: true,
      plannedStartTime: new Date(now - 3_600_000).toISOString(),
      plannedFinishTime: new Date(now + 3_600_000).toISOString(),
      relations: [{ referenceType: 'Block', referenceId: randomUUID() }],
    });
    const change = await updateWorkUnit(admin, created.workUnitId, { approver2: OPERATOR_MAIL });
    const id = change.workUnitId;

    const adminPage = await signedInPage(browser, 'admin');
    await adminPage.goto(`/${tenantId}/workunitsv2?workUnitId=${id}`);
    const adminPanel = drawer(adminPage);
    await adminPanel.getByRole('heading', { name: `Edit Work Unit #${id}: ${change.title}` }).waitFor();
    await adminPanel.getByTestId('approver-1').getByRole('button', { name: 'Approve' }).click();
    await adminPanel.getByTestId('approver-1').getByText(`Approved by Ada Admin (${ADMIN_MAIL})`).waitFor();

    const operatorPage = await signedInPage(browser, 'operator');
    await operatorPage.goto(`/${tenantId}/workunitsv2?workUnitId=${id}`);
    const operatorPanel = drawer(operatorPage);
    await operatorPanel.getByRole('heading', { name: `Edit Work Unit #${id}: ${change.title}` }).waitFor();
    await operatorPanel.getByTestId('approver-2').getByRole('button', { name: 'Approve' }).click();
    await operatorPanel.getByTestId('approver-2').getByText(`Approved by Oscar Operator (${OPERATOR_MAIL})`).waitFor();

    // The worker reads the approval's event and opens the window (within its few seconds' period).
    const name = `Maintenance: ${change.title} (#${id})`;
    const findRule = async () =>
      (await api<ListResponse<JsonOf<Rule>>>(operator, `/v1/rules?$filter=${encodeURIComponent(`name eq '${name}'`)}`))
        .value;
    await expect.poll(findRule, { timeout: 30_000, interval: 500 }).toHaveLength(1);
    const [rule] = await findRule();
    expect(rule).toMatchObject({ ruleTypeId: RULE_TYPES.Maintenance, tenantId, enabled: true });

    await operatorPage.goto(`/${tenantId}/rules`);
    await operatorPage.getByRole('heading', { level: 1, name: 'Rules' }).waitFor();
    await searchGrid(operatorPage, change.title);
    await gridRow(operatorPage, name).getByText(name).click();
    const ruleDrawer = drawer(operatorPage);
    await ruleDrawer.getByRole('heading', { name: `Edit: ${name}` }).waitFor();
    const link = ruleDrawer.getByRole('link', { name: `From change request #${id}` });
    await link.waitFor();
    await screenshot(operatorPage, 'maintenance-from-change-rule');

    await link.click();
    await operatorPage.waitForURL(
      (url) => url.pathname === `/${tenantId}/workunitsv2` && url.searchParams.get('workUnitId') === String(id),
    );
    await drawer(operatorPage)
      .getByRole('heading', { name: `Edit Work Unit #${id}: ${change.title}` })
      .waitFor();
    await screenshot(operatorPage, 'maintenance-from-change-work-unit');
  }, 120_000);
});

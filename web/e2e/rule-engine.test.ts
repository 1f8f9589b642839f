import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { BUILT_IN_ACTIONS, LEFT_OPERANDS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import type { Rule } from '@cfs/contracts/rules';
import {
  api,
  browser,
  createSubscription,
  createTenant,
  createToken,
  drawer,
  portalUrl,
  screenshot,
  sessionOf,
  settled,
  signedInPage,
  uniqueName,
  type ListResponse,
  type Session,
} from './support';

/**
 * A tenant of the test's own with one block (named after `what`), and a way to report a packet
 * of that block with a tenant API token, as a device would.
 */
async function ownBlock(admin: Session, what: string) {
  const tenant = await createTenant(admin, { name: uniqueName('Rules E2E') });
  const subscription = await createSubscription(admin, tenant.tenantId, uniqueName('Plant'));
  const { generatedToken } = await createToken(admin, { tenantId: tenant.tenantId });
  const blockId = randomUUID();
  const name = uniqueName(what);
  await api(admin, '/v1/blocks', {
    method: 'PUT',
    body: { blockId, subscriptionId: subscription.subscriptionId, name, description: null, blockTypeId: 1 },
  });
  const report = async (value: number) => {
    const response = await fetch(`${portalUrl()}/v1/packets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${generatedToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        entityId: blockId,
        timestamp: new Date().toISOString(),
        message: { Value: value, Properties: { BlockName: name } },
      }),
    });
    expect(response.status).toBe(200);
  };
  return { tenant, blockId, name, report };
}

/** An ingestion rule on the tenant's packets whose Value is over 100, its match kept 5 minutes from the last. */
const overHundred = (name: string, tenantId: string) => ({
  name,
  ruleTypeId: RULE_TYPES.Ingestion,
  tenantId,
  matchLifetime: '00:05:00',
  useSlidingExpiration: true,
  conditions: [{ Type: 0, LeftOperand: LEFT_OPERANDS.Value.id, Operator: OPERATORS.GreaterThan, RightOperand: '100' }],
});

/**
 * The rule engine as a user meets it, with nothing written behind the portal's back: a rule made
 * through the API, a packet over its threshold reported with a tenant token, and then in the
 * browser the block's tile turned red by the rule's Set Colour action (run by the portal's worker),
 * the match with why it fired in the block's Rule Matches tab, and the incident the rule opened.
 */
describe('a threshold rule in the browser', () => {
  let admin: Session;

  beforeAll(async () => {
    admin = await sessionOf(browser, 'admin');
  }, 60_000);

  test('a packet over the threshold turns the tile red, records why, and opens an incident', async () => {
    const { tenant, blockId, name, report } = await ownBlock(admin, 'Boiler');
    const ruleName = uniqueName('Boiler too hot');
    const rule = await api<Rule>(admin, '/v1/rules', {
      method: 'PUT',
      body: {
        ...overHundred(ruleName, tenant.tenantId),
        matchActions: [
          { ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Red' } },
          { ActionDefinitionId: BUILT_IN_ACTIONS.createWorkUnit.id, Parameters: { SeverityId: '1' } },
        ],
        expirationActions: [{ ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Green' } }],
      },
    });

    await report(72);
    await report(129);

    // The match, opened by the packet over 100 (not by the one under it).
    const matches = await api<ListResponse<{ ruleId: string; subjectId: string; matchCount: number }>>(
      admin,
      `/v1/rulematches?$filter=ruleId eq ${rule.ruleId}`,
    );
    expect(matches.value).toEqual([expect.objectContaining({ subjectId: blockId, matchCount: 1 })]);

    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${tenant.tenantId}/blocks`);
    const tile = page.getByRole('article', { name });
    await expect.poll(() => tile.getAttribute('data-color'), { timeout: 30_000 }).toBe('Red');
    expect(await tile.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(255, 51, 51)');
    await expect.poll(() => tile.getByTestId('block-value').textContent()).toBe('129');
    await settled(tile);
    await screenshot(page, 'rule-engine-tile');

    await tile.click();
    const panel = drawer(page);
    await panel.getByRole('tab', { name: 'Rule Matches' }).click();
    const row = panel.getByRole('table', { name: 'Block rule matches' }).getByTestId('rule-match-row');
    await row.waitFor();
    expect(await row.textContent()).toContain(ruleName);
    expect(await row.locator('.MuiChip-root').textContent()).toBe('Active');
    await row.getByRole('button', { name: 'Why it fired' }).click();
    await panel.getByText('Value Greater Than 100 — seen 129').waitFor();
    // What its actions did, from the action history.
    const actions = panel.getByRole('list', { name: 'Actions run' });
    await expect.poll(() => actions.getByRole('listitem').count(), { timeout: 30_000 }).toBe(2);
    expect(await actions.textContent()).toContain('Set Colour — Success: Colour set to Red');
    expect(await actions.textContent()).toContain('Create Work Unit — Success: Work unit');
    await settled(panel);
    await screenshot(page, 'rule-engine-reason');
    await panel.getByRole('tab', { name: 'Logs' }).click();
    await panel.getByText(`Colour set to Red by rule "${ruleName}" (matched).`).waitFor();
    await settled(panel);
    await screenshot(page, 'rule-engine-match');
    // The Timeline: the packet, the match it caused, the runs of its actions, the unit they opened.
    await panel.getByRole('tab', { name: 'Timeline' }).click();
    const timeline = panel.getByRole('list', { name: 'Timeline' });
    await timeline.getByText(/^Work unit \d+ created: /).waitFor();
    const kinds = await timeline
      .locator('[data-testid="timeline-entry"]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
    expect(kinds.slice(0, 2)).toEqual(['packet', 'ruleMatch']);
    expect(kinds.indexOf('workUnit')).toBeGreaterThan(kinds.indexOf('actionRun'));
    await timeline.getByText(`Rule "${ruleName}" matched ${name}`, { exact: true }).waitFor();
    await timeline.getByText('Caused by: Create Work Unit: Success').waitFor();
    await settled(panel);
    await screenshot(page, 'rule-engine-timeline');

    // The incident the rule opened, in the tenant's work units.
    const units = await api<ListResponse<{ title: string; severityId: number }>>(
      admin,
      `/v1/workunits?$filter=tenantId eq ${tenant.tenantId}`,
    );
    expect(units.value).toEqual([
      expect.objectContaining({ title: `${ruleName}: ${name} (${blockId})`, severityId: 1 }),
    ]);
  }, 90_000);

  test('the Timeline shows a repeated match as caused by the first packet that matched, not the newest', async () => {
    const { tenant, name, report } = await ownBlock(admin, 'Kiln');
    const ruleName = uniqueName('Kiln too hot');
    await api<Rule>(admin, '/v1/rules', {
      method: 'PUT',
      body: overHundred(ruleName, tenant.tenantId),
    });
    for (const value of [131, 142, 153]) await report(value);

    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${tenant.tenantId}/blocks`);
    await page.getByRole('article', { name }).click();
    const panel = drawer(page);
    await panel.getByRole('tab', { name: 'Timeline' }).click();
    const timeline = panel.getByRole('list', { name: 'Timeline' });
    const matched = timeline.locator('[data-testid="timeline-entry"][data-kind="ruleMatch"]');
    await matched.getByText(`Rule "${ruleName}" matched ${name} (3 times)`, { exact: true }).waitFor();
    await matched.getByText(`Caused by: Packet from ${name}`).waitFor();
    const packet = timeline.locator('[data-testid="timeline-entry"][data-kind="packet"]');
    expect(await packet.count()).toBe(1);
    expect(await packet.textContent()).toContain('"Value":131');
    expect(await packet.textContent()).not.toContain('"Value":153');
    await settled(panel);
    await screenshot(page, 'rule-engine-timeline-first-packet');
  }, 90_000);
});

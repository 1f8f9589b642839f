import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { WORK_UNIT_EVENT_TYPES } from '@cfs/contracts/values/work-units';
import {
  actionEndpoint,
  browser,
  choose,
  createActionDefinition,
  createProtocol,
  createProtocolAction,
  drawer,
  gridRow,
  homeTenantId,
  screenshot,
  searchGrid,
  sessionOf,
  signedInPage,
  uniqueName,
} from './support';

/**
 * The action catalogue in the browser (spec 002 §2 Action catalogue, §4, §5, §7, §8): the grid,
 * Create and Edit with the spec's messages, Test with its history, the History drawer with a
 * run's details, the two-step Delete, and built-in actions read-only. Every test makes its own
 * actions, calling an HTTP endpoint of its own on 127.0.0.1.
 */
describe('action catalogue (operator)', () => {
  async function openCatalog(page: Page, tenantId: string): Promise<void> {
    await page.goto(`/${tenantId}/actioncatalog`);
    await page.getByRole('heading', { level: 1, name: 'Action Catalog' }).waitFor();
  }

  const rowAction = (page: Page, name: string, action: string) =>
    gridRow(page, name).getByRole('button', { name: action, exact: true });

  test('creates an action (both required messages first) and edits it; the grid shows its type and tenant', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const endpoint = await actionEndpoint();
    const name = uniqueName('E2E create action');
    const page = await signedInPage(browser, 'operator');
    await openCatalog(page, tenantId);
    for (const header of ['Name', 'Description', 'Type', 'Tenant'])
      await page.getByRole('columnheader', { name: header }).first().waitFor();

    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Action Definition' }).waitFor();
    // Spec 002 §5: Name and Type are required, each with 'This field is required.'.
    await panel.getByRole('textbox', { name: 'Description' }).fill('Pages the on-call host');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => panel.getByText(AUTOMATION_MESSAGES.fieldRequired).count()).toBe(2);
    // Only the user types are offered (the built-in ones are the portal's own).
    await panel.getByRole('combobox', { name: 'Type' }).click();
    const types = await page.getByRole('listbox').getByRole('option').allTextContents();
    expect(types).toEqual(['Protocol Action', 'Rule Action', 'Protocol or Rule Action']);
    await page.keyboard.press('Escape');
    expect(await panel.getByRole('combobox', { name: 'HTTP Method' }).textContent()).toBe('POST');

    await panel.getByRole('textbox', { name: 'Name' }).fill(name);
    await choose(panel, page, 'Type', 'Protocol or Rule Action');
    await panel.getByRole('textbox', { name: 'Input Parameters' }).fill('Host');
    await choose(panel, page, 'HTTP Method', 'PUT');
    await panel.getByRole('textbox', { name: 'Endpoint URL' }).fill(`${endpoint.url}/hook/{Host}`);
    await panel.getByRole('textbox', { name: 'Headers' }).fill('X-Source:e2e');
    await panel.getByRole('textbox', { name: 'Body' }).fill('{"host":"{Host}"}');
    // The placeholders its runs fill: a protocol step's and a rule's, as the runner fills them.
    const placeholders = panel.getByRole('region', { name: 'Placeholders' });
    expect(await placeholders.getByTestId('placeholders-rule').textContent()).toContain(
      '{EntityId} {WorkUnitId} {Title}',
    );
    expect(await placeholders.getByTestId('placeholders-protocol').textContent()).toContain('{WorkUnitId} {Title}');
    await screenshot(page, 'action-catalog-create');
    const [created] = await Promise.all([
      page.waitForResponse(
        (response) =>
          response.request().method() === 'PUT' && new URL(response.url()).pathname === '/v1/actionDefinitions',
      ),
      panel.getByRole('button', { name: 'Save', exact: true }).click(),
    ]);
    expect(created.ok()).toBe(true);
    await panel.getByRole('heading', { name: 'Edit Action Definition' }).waitFor();
    await page.waitForURL((url) => (url.searchParams.get('actionDefinitionId') ?? 'new') !== 'new');
    await panel.getByRole('button', { name: 'Close', exact: true }).click();

    await searchGrid(page, name);
    expect(await gridRow(page, name).textContent()).toContain('Protocol or Rule ActionContoso');
    await screenshot(page, 'action-catalog-grid');

    // Edit: the saved values come back, a new description is saved.
    await rowAction(page, name, 'Edit').click();
    await panel.getByRole('heading', { name: 'Edit Action Definition' }).waitFor();
    expect(await panel.getByRole('textbox', { name: 'Endpoint URL' }).inputValue()).toBe(`${endpoint.url}/hook/{Host}`);
    expect(await panel.getByRole('combobox', { name: 'HTTP Method' }).textContent()).toBe('PUT');
    await panel.getByRole('textbox', { name: 'Description' }).fill('Pages the on-call host, edited');
    await panel.getByRole('button', { name: 'Save & Close', exact: true }).click();
    await panel.waitFor({ state: 'hidden' });
    await expect.poll(() => gridRow(page, name).textContent()).toContain('Pages the on-call host, edited');
  });

  test('tests an action with a parameter and an extra pair; its history shows the run, the request sent and the response', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const endpoint = await actionEndpoint();
    const action = await createActionDefinition(session, {
      name: uniqueName('E2E test action'),
      inputParameters: 'Host',
      endpointUrl: `${endpoint.url}/hook/{Host}`,
      headers: 'X-Region:{Region}',
      body: '{"host":"{Host}","region":"{Region}"}',
    });
    const page = await signedInPage(browser, 'operator');
    await openCatalog(page, tenantId);
    await searchGrid(page, action.name);

    await rowAction(page, action.name, 'Test').click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Test Action Definition ${action.name}` }).waitFor();
    await panel.getByRole('textbox', { name: 'Host' }).fill('db1');
    // Spec 002 §5: up to seven extra pairs.
    const add = panel.getByRole('button', { name: 'Add Parameter' });
    for (let pair = 0; pair < 7; pair++) await add.click();
    expect(await add.isDisabled()).toBe(true);
    for (let pair = 7; pair > 1; pair--)
      await panel
        .getByRole('group', { name: `Extra parameter ${pair}` })
        .getByRole('button', { name: 'Remove' })
        .click();
    expect(await add.isDisabled()).toBe(false);
    const pair = panel.getByRole('group', { name: 'Extra parameter 1' });
    await pair.getByRole('textbox', { name: 'Param' }).fill('Region');
    await pair.getByRole('textbox', { name: 'Value' }).fill('eu-west');

    const [sent] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/test')),
      panel.getByRole('button', { name: 'Test', exact: true }).click(),
    ]);
    expect(sent.ok()).toBe(true);
    const history = panel.getByRole('table', { name: 'Action history' });
    await expect.poll(() => history.getByText('Success', { exact: true }).count(), { timeout: 15_000 }).toBe(1);
    expect(endpoint.calls).toEqual([{ method: 'POST', path: '/hook/db1', body: '{"host":"db1","region":"eu-west"}' }]);
    await screenshot(page, 'action-catalog-test');

    await history.getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Action Run Details' });
    await dialog.getByText(`POST ${endpoint.url}/hook/db1`).first().waitFor();
    await dialog.getByText('{"host":"db1","region":"eu-west"}').first().waitFor();
    await dialog.getByText('{"ok":true}').waitFor();
    await dialog.getByText('200', { exact: true }).waitFor();
    await screenshot(page, 'action-catalog-run-details');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();

    // The History drawer (75vw) lists the same run.
    await rowAction(page, action.name, 'History').click();
    await panel.getByRole('heading', { name: `Action History: ${action.name}` }).waitFor();
    const width = await panel.evaluate((element) => element.getBoundingClientRect().width / window.innerWidth);
    expect(width).toBeCloseTo(0.75, 1);
    const rows = panel.getByTestId('action-history-row');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByRole('button', { name: 'Details' }).click();
    await page
      .getByRole('dialog', { name: 'Action Run Details' })
      .getByText(`POST ${endpoint.url}/hook/db1`)
      .first()
      .waitFor();
    await screenshot(page, 'action-catalog-history');
  });

  test('deletes in two steps: the protocols that use the action, then the question, then the message', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const endpoint = await actionEndpoint();
    const action = await createActionDefinition(session, {
      name: uniqueName('E2E doomed action'),
      endpointUrl: `${endpoint.url}/hook`,
    });
    const protocol = await createProtocol(session);
    await createProtocolAction(session, {
      protocolId: protocol.protocolId,
      actionDefinitionId: action.actionDefinitionId,
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnNew,
    });
    const page = await signedInPage(browser, 'operator');
    await openCatalog(page, tenantId);
    await searchGrid(page, action.name);

    await rowAction(page, action.name, 'Delete').click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Confirm Action Dependencies Before Delete' }).waitFor();
    await panel.getByRole('region', { name: 'Protocols' }).getByText(protocol.name, { exact: false }).waitFor();
    await panel.getByRole('region', { name: 'Rules' }).getByText('No rule uses this action.').waitFor();
    await screenshot(page, 'action-catalog-delete');
    await panel.getByRole('button', { name: 'Continue' }).click();
    const question = page.getByRole('dialog').filter({ hasText: AUTOMATION_MESSAGES.actionDeleteConfirm });
    await question.getByRole('button', { name: 'Yes' }).click();
    await page
      .getByText(/deleted/i)
      .first()
      .waitFor();
    await panel.waitFor({ state: 'hidden' });
    await expect.poll(() => gridRow(page, action.name).count()).toBe(0);
  });

  test('shows a built-in action read-only: no save, no delete', async () => {
    const session = await sessionOf(browser, 'operator');
    const page = await signedInPage(browser, 'operator');
    await openCatalog(page, homeTenantId(session));
    await searchGrid(page, BUILT_IN_ACTIONS.sendEmail.name);
    const row = gridRow(page, BUILT_IN_ACTIONS.sendEmail.name);
    expect(await row.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await row.getByRole('button', { name: 'View', exact: true }).click();
    const panel: Locator = drawer(page);
    await panel.getByRole('heading', { name: 'Edit Action Definition' }).waitFor();
    await panel.getByText('Built-in actions cannot be edited or deleted.').waitFor();
    expect(await panel.getByRole('textbox', { name: 'Name' }).isDisabled()).toBe(true);
    expect(await panel.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    // It runs inside the portal: what it does is said, with no HTTP call's empty fields.
    await panel.getByText(/^Sends an email about the work unit \(or the rule's match\)/).waitFor();
    for (const field of ['Endpoint URL', 'Headers', 'Body'])
      expect(await panel.getByRole('textbox', { name: field }).count(), field).toBe(0);
    expect(await panel.getByRole('combobox', { name: 'HTTP Method' }).count()).toBe(0);
    await screenshot(page, 'action-catalog-built-in');
  });
});

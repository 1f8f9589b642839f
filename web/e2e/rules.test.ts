import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { BUILT_IN_ACTIONS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import type { Rule } from '@cfs/contracts/rules';
import type { JsonOf } from '../src/lib/json-types';
import {
  api,
  awaitLater,
  browser,
  choose,
  createTenant,
  createToken,
  drawer,
  gridRow,
  homeTenantId,
  portalDatabase,
  portalUrl,
  reportPackets,
  screenshot,
  searchGrid,
  sessionOf,
  settled,
  signedInPage,
  sweptSince,
  uniqueName,
  type Session,
} from './support';

type RuleRow = JsonOf<Rule>;

/**
 * Rules in the browser (spec 002 §2 Rules, §4, §5 Rule, §8): the grid with Show Disabled Rules,
 * its row actions, and the 75vw editor with its tabs, messages and Test. Each test makes its own rules.
 */
/** A rule made through the API (an Ingestion rule of the session's tenant by default). */
const createRule = (session: Session, values: Record<string, unknown> = {}) =>
  api<RuleRow>(session, '/v1/rules', {
    method: 'PUT',
    body: {
      name: uniqueName('E2E rule'),
      ruleTypeId: RULE_TYPES.Ingestion,
      tenantId: homeTenantId(session),
      matchLifetime: '00:05:00',
      conditions: [{ Type: 0, LeftOperand: 1, Operator: OPERATORS.Equals, RightOperand: 'down' }],
      matchActions: [{ ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Red' } }],
      ...values,
    },
  });

/**
 * A rule of the tenant that sends the Rule email when a packet's Value is a word of its own, and
 * `report`, which sends one packet carrying that word per block name with a token of the tenant.
 */
async function mailingRule(session: Session, tenantId: string, name: string) {
  const word = `word-${randomUUID().slice(0, 8)}`;
  const rule = await createRule(session, {
    name: uniqueName(name),
    tenantId,
    conditions: [{ Type: 0, LeftOperand: 1, Operator: OPERATORS.Equals, RightOperand: word }],
    matchActions: [
      { ActionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id, Parameters: { Template: 'Rule', IsImportant: 'false' } },
    ],
  });
  const { generatedToken } = await createToken(session, { tenantId });
  const report = async (blocks: readonly string[]) => {
    const reported = await fetch(`${portalUrl()}/v1/packets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${generatedToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        blocks.map((block) => ({
          entityId: randomUUID(),
          timestamp: new Date().toISOString(),
          message: { Value: word, Properties: { BlockName: block } },
        })),
      ),
    });
    expect(reported.status).toBe(200);
  };
  return { rule, report };
}

describe('rules (operator)', () => {
  async function openRules(page: Page, tenantId: string, query = ''): Promise<void> {
    await page.goto(`/${tenantId}/rules${query}`);
    // A drawer named in the address is a modal that hides the page behind it from assistive
    // technology (aria-hidden) once it opens: the heading is drawn all the same.
    await page.getByRole('heading', { level: 1, name: 'Rules', includeHidden: true }).waitFor();
  }

  /** The checkbox is the list's filter, kept in the address: it shows its new state once the address does. */
  async function showDisabled(page: Page, show: boolean): Promise<void> {
    const box = page.getByRole('checkbox', { name: 'Show Disabled Rules' });
    await box.click();
    await expect.poll(() => box.isChecked()).toBe(show);
  }

  /** Reports packets with a tenant token of the test's own. */
  async function report(session: Session, packets: unknown[]): Promise<void> {
    const { generatedToken } = await createToken(session);
    await reportPackets(generatedToken, packets);
  }

  const tab = (panel: Locator, name: string) => panel.getByRole('tab', { name, exact: true });
  const condition = (panel: Locator, index: number) =>
    panel.getByRole('group', { name: `Condition ${index}`, exact: true });

  test('creates a rule through the three tabs: every message of an empty rule, the tenant condition added and removed, a condition and an action', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const listed = await createRule(session, {
      name: uniqueName('E2E listed'),
      subscriptionId: '0c9b8a7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d',
      matchLifetime: '01:00:00',
    });
    const page = await signedInPage(browser, 'operator');
    await openRules(page, tenantId);
    for (const header of ['Name', 'Type', 'Tenant', 'Subscription', 'Enabled', 'Lifetime'])
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    // At 1400 px the names are whole and Modified, for want of room, is one click away.
    await page.getByRole('button', { name: 'Columns' }).click();
    expect(await page.getByRole('checkbox', { name: 'Modified' }).isChecked()).toBe(false);
    await page.keyboard.press('Escape');
    await searchGrid(page, listed.name);
    expect(await gridRow(page, listed.name).textContent()).toMatch(/IngestionContosoContoso Production.*01:00:00/);
    await screenshot(page, 'rules-grid');

    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('ruleId') === 'new');
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Rule' }).waitFor();
    // 75vw wide (DRAWER_WIDE_WIDTH).
    const width = await panel.evaluate((element) => element.getBoundingClientRect().width / window.innerWidth);
    expect(width).toBeCloseTo(0.75, 1);
    // A new rule is enabled with a 5-minute lifetime (spec 002 §4).
    expect(await panel.getByRole('checkbox', { name: 'Enabled' }).isChecked()).toBe(true);
    expect(await panel.getByRole('spinbutton', { name: 'Lifetime minutes' }).inputValue()).toBe('5');
    await panel.getByText('Must be at least 5 minutes.').waitFor();

    // The page's tenant is chosen: its fixed condition is first and locked.
    await tab(panel, 'Conditions').click();
    await condition(panel, 1).getByLabel('Fixed tenant condition').waitFor();
    expect(await condition(panel, 1).getByRole('combobox', { name: 'Left Operand' }).textContent()).toBe('Tenant');
    // The value shows the tenant's name once the condition's choices have loaded.
    await expect.poll(() => condition(panel, 1).getByRole('combobox', { name: 'Value' }).textContent()).toBe('Contoso');
    await screenshot(page, 'rules-editor-tenant-condition');

    // Clearing the tenant removes it; an empty rule answers every message of its tabs.
    await tab(panel, 'Details').click();
    await choose(panel, page, 'Tenant', 'None (every tenant)');
    await tab(panel, 'Conditions').click();
    expect(await condition(panel, 1).count()).toBe(0);
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await panel.getByText('Condtions are required for rules.').waitFor();
    await tab(panel, 'Details').click();
    await panel.getByText('Please enter a rule name').waitFor();
    await panel.getByText('Please select a Rule Type').waitFor();
    await screenshot(page, 'rules-editor-messages');

    // Choosing the tenant again adds its condition back.
    await choose(panel, page, 'Tenant', 'Contoso');
    const name = uniqueName('E2E CPU rule');
    await panel.getByRole('textbox', { name: 'Name' }).fill(name);
    await choose(panel, page, 'Rule Type', 'Ingestion');
    await choose(panel, page, 'Subscription', 'Contoso Production');
    await panel.getByRole('spinbutton', { name: 'Lifetime minutes' }).fill('15');

    await tab(panel, 'Conditions').click();
    await condition(panel, 1).getByLabel('Fixed tenant condition').waitFor();
    await panel.getByRole('button', { name: 'Add Condition' }).click();
    const second = condition(panel, 2);
    await choose(second, page, 'Left Operand', 'Metrics');
    await second.getByRole('textbox', { name: 'Field Name' }).fill('CpuPercent');
    await choose(second, page, 'Operator', 'Greater Than');
    await second.getByRole('textbox', { name: 'Value' }).fill('90');
    await choose(second, page, 'Occurrence', '3 in a row');
    // IsEmpty takes no value (spec 002 §5).
    await panel.getByRole('button', { name: 'Add Condition' }).click();
    const third = condition(panel, 3);
    await choose(third, page, 'Left Operand', 'Properties');
    await choose(third, page, 'Operator', 'Is Empty');
    expect(await third.getByRole('textbox', { name: 'Value' }).count()).toBe(0);
    await third.getByRole('textbox', { name: 'Field Name' }).fill('Owner');
    await choose(third, page, 'And/Or', 'Or');
    await screenshot(page, 'rules-editor-conditions');

    await tab(panel, 'Actions').click();
    await panel.getByRole('button', { name: 'Add Match Action' }).click();
    const action = panel.getByRole('group', { name: 'Match Action 1' });
    await choose(action, page, 'Action', 'Set Colour');
    await choose(action, page, 'Colour', 'Red');
    // A rule mails its match itself: Send Email with the Rule template, to the on-call address too.
    await panel.getByRole('button', { name: 'Add Match Action' }).click();
    const email = panel.getByRole('group', { name: 'Match Action 2' });
    await choose(email, page, 'Action', 'Send Email');
    await choose(email, page, 'Template', 'Rule');
    await choose(email, page, 'Important', 'true');
    await email.getByRole('textbox', { name: 'Extra Parameters' }).fill('{"To": "oncall@contoso.example"}');
    await panel.getByRole('button', { name: 'Add Expiration Action' }).click();
    const expiry = panel.getByRole('group', { name: 'Expiration Action 1' });
    await choose(expiry, page, 'Action', 'Create Work Unit');
    await choose(expiry, page, 'Severity', 'Sev2');
    await screenshot(page, 'rules-editor-actions');

    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => /^[0-9a-f-]{36}$/.test(url.searchParams.get('ruleId') ?? ''));
    await panel.getByRole('heading', { name: `Edit: ${name}` }).waitFor();
    const ruleId = new URL(page.url()).searchParams.get('ruleId') ?? '';
    const saved = await api<RuleRow>(session, `/v1/rules/${ruleId}`);
    expect(saved).toMatchObject({
      name,
      ruleTypeId: 1,
      enabled: true,
      matchLifetime: '00:15:00',
      tenantId,
      timeConditions: null,
    });
    expect(saved.conditions).toEqual([
      {
        Type: 0,
        LeftOperand: 20,
        LeftOperandFieldName: null,
        Operator: 1,
        RightOperand: tenantId,
        OccurrencePattern: null,
      },
      {
        Type: 0,
        LeftOperand: 3,
        LeftOperandFieldName: 'CpuPercent',
        Operator: 3,
        RightOperand: '90',
        OccurrencePattern: '3/3',
      },
      {
        Type: 1,
        LeftOperand: 2,
        LeftOperandFieldName: 'Owner',
        Operator: 13,
        RightOperand: null,
        OccurrencePattern: null,
      },
    ]);
    expect(saved.matchActions).toEqual([
      { ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Red' } },
      {
        ActionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
        Parameters: { Template: 'Rule', IsImportant: 'true', ExtraParameters: '{"To": "oncall@contoso.example"}' },
      },
    ]);
    expect(saved.expirationActions).toEqual([
      { ActionDefinitionId: BUILT_IN_ACTIONS.createWorkUnit.id, Parameters: { SeverityId: '2' } },
    ]);

    // Removing an action asks first (spec 002 §8).
    await panel.getByRole('button', { name: 'Remove Expiration Action 1' }).click();
    await page.getByText('Are you sure you want to remove this rule action?').waitFor();
    await screenshot(page, 'rules-editor-remove-action');
    await page.getByRole('button', { name: 'Yes' }).click();
    expect(await panel.getByRole('group', { name: 'Expiration Action 1' }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await page.waitForURL((url) => !url.searchParams.has('ruleId'));
    await expect
      .poll(async () => (await api<RuleRow>(session, `/v1/rules/${ruleId}`)).expirationActions, { timeout: 10_000 })
      .toEqual([]);
    await searchGrid(page, name);
    const row = gridRow(page, name);
    expect(await row.textContent()).toContain('Contoso Production');
    expect(await row.textContent()).toContain('00:15:00');
  });

  test('a condition’s Occurrence lists each choice once: Every occurrence, then the patterns', async () => {
    const session = await sessionOf(browser, 'operator');
    const page = await signedInPage(browser, 'operator');
    await openRules(page, homeTenantId(session), '?ruleId=new');
    const panel = drawer(page);
    await tab(panel, 'Conditions').click();
    await panel.getByRole('button', { name: 'Add Condition' }).click();
    // Condition 1 is the tenant's, fixed.
    await condition(panel, 2).getByRole('combobox', { name: 'Occurrence' }).click();
    const listbox = page.getByRole('listbox');
    await settled(listbox);
    expect(await listbox.getByRole('option').allTextContents()).toEqual([
      'Every occurrence',
      '2 in a row',
      '3 in a row',
      '5 in a row',
      '2 of the last 3',
      '3 of the last 5',
      '5 of the last 10',
    ]);
    await screenshot(page, 'rules-editor-occurrence');
    await page.keyboard.press('Escape');
  });

  test('an Entity condition’s values are asked for again as the list opens: an entity that reported meanwhile is offered', async () => {
    const session = await sessionOf(browser, 'operator');
    const page = await signedInPage(browser, 'operator');
    await openRules(page, homeTenantId(session), '?ruleId=new');
    const panel = drawer(page);
    await choose(panel, page, 'Rule Type', 'Ingestion');
    await tab(panel, 'Conditions').click();
    await panel.getByRole('button', { name: 'Add Condition' }).click();
    const entity = condition(panel, 2);
    await choose(entity, page, 'Left Operand', 'Entity');
    const name = uniqueName('E2E new pump');
    const entityId = randomUUID();
    await entity.getByRole('combobox', { name: 'Value' }).click();
    await settled(page.getByRole('listbox'));
    expect(await page.getByRole('listbox').getByText(name, { exact: false }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await report(session, [
      { entityId, timestamp: new Date().toISOString(), message: { Value: 1, Properties: { BlockName: name } } },
    ]);
    await entity.getByRole('combobox', { name: 'Value' }).click();
    await page
      .getByRole('listbox')
      .getByRole('option', { name: `${name} (${entityId})` })
      .click();
    await expect.poll(() => entity.getByRole('combobox', { name: 'Value' }).textContent()).toContain(name);
  });

  test('the lifetime minimum, and a Maintenance rule’s time limitations: zone, days and dates', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const page = await signedInPage(browser, 'operator');
    await openRules(page, tenantId, '?ruleId=new');
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Rule' }).waitFor();
    const name = uniqueName('E2E maintenance');
    await panel.getByRole('textbox', { name: 'Name' }).fill(name);
    await choose(panel, page, 'Rule Type', 'Maintenance');
    for (const part of ['hours', 'minutes', 'seconds'])
      await panel.getByRole('spinbutton', { name: `Lifetime ${part}` }).fill('');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Lifetime is required').waitFor();
    await panel.getByRole('spinbutton', { name: 'Lifetime minutes' }).fill('4');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Time limitations are required for Maintenance rules.').waitFor();
    await panel.getByRole('group', { name: 'Lifetime' }).locator('.Mui-error').first().waitFor();
    await screenshot(page, 'rules-editor-maintenance-needs-time');
    await panel.getByRole('spinbutton', { name: 'Lifetime minutes' }).fill('30');

    await panel.getByLabel('Time Limitations').check();
    // Defaults: America/New_York and every day (spec 002 §5).
    expect(await panel.getByRole('combobox', { name: 'Time Zone' }).inputValue()).toBe('America/New_York');
    for (const day of ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']) {
      const box = panel.getByRole('checkbox', { name: day, exact: true });
      expect(await box.isChecked()).toBe(true);
      await box.uncheck();
    }
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('At least one day should be selected when using a Maintenance rule.').waitFor();
    await screenshot(page, 'rules-editor-time-messages');
    await panel.getByRole('combobox', { name: 'Time Zone' }).clear();
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('A timezone is required.').waitFor();

    await panel.getByRole('combobox', { name: 'Time Zone' }).fill('Europe/Dub');
    await page.getByRole('option', { name: 'Europe/Dublin' }).click();
    await panel.getByRole('checkbox', { name: 'Sat', exact: true }).check();
    await panel.getByRole('checkbox', { name: 'Sun', exact: true }).check();
    // A day the month does not have is not a date (spec 002 §5).
    const startDay = panel.getByRole('group', { name: 'Start Date' }).getByRole('spinbutton', { name: 'Day' });
    await startDay.click();
    await page.keyboard.type('31Feb20271000');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Please enter a valid date').waitFor();
    await screenshot(page, 'rules-editor-invalid-date');
    await startDay.click();
    await page.keyboard.type('01Mar20271000');
    await expect.poll(() => panel.getByText('Please enter a valid date').count()).toBe(0);

    await tab(panel, 'Conditions').click();
    await panel.getByRole('button', { name: 'Add Condition' }).click();
    await choose(condition(panel, 2), page, 'Left Operand', 'Properties');
    await condition(panel, 2).getByRole('textbox', { name: 'Field Name' }).fill('Site');
    await condition(panel, 2).getByRole('textbox', { name: 'Value' }).fill('Warehouse');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => /^[0-9a-f-]{36}$/.test(url.searchParams.get('ruleId') ?? ''));
    const ruleId = new URL(page.url()).searchParams.get('ruleId') ?? '';
    const saved = await api<RuleRow>(session, `/v1/rules/${ruleId}`);
    expect(saved.matchLifetime).toBe('00:30:00');
    expect(JSON.parse(saved.timeConditions ?? 'null')).toMatchObject({
      TimeZoneId: 'Europe/Dublin',
      DaysOfWeek: [0, 6],
    });
    expect(new Date(JSON.parse(saved.timeConditions ?? '{}').StartRange as string).getUTCMonth()).toBe(2);
  });

  test('Show Disabled Rules, and toggle, copy (disabled) and delete from the grid', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const rule = await createRule(session, { name: uniqueName('E2E toggled') });
    const page = await signedInPage(browser, 'operator');
    await openRules(page, tenantId);
    await searchGrid(page, rule.name);
    const row = gridRow(page, rule.name);
    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Rule disabled.').waitFor();
    // Enabled rules only, unless asked (spec 002 §2).
    await expect.poll(() => gridRow(page, rule.name).count(), { timeout: 10_000 }).toBe(0);
    await showDisabled(page, true);
    await row.waitFor();
    expect(await row.getByRole('button', { name: 'Enable' }).count()).toBe(1);
    await screenshot(page, 'rules-grid-disabled');
    await row.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Rule enabled.').waitFor();
    await expect.poll(async () => (await api<RuleRow>(session, `/v1/rules/${rule.ruleId}`)).enabled).toBe(true);

    await row.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Rule copied. The copy is disabled.').waitFor();
    const copy = gridRow(page, `Copy of ${rule.name}`);
    await copy.waitFor();
    expect(await copy.getByRole('button', { name: 'Enable' }).count()).toBe(1);
    await showDisabled(page, false);
    await expect.poll(() => copy.count(), { timeout: 10_000 }).toBe(0);

    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(`Are you sure you want to delete the rule '${rule.name}'?`).waitFor();
    await screenshot(page, 'rules-delete-confirm');
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Rule deleted successfully.').waitFor();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
  });

  test('failures: "Unable to save rule. Please try again.", "Unable to delete rule. Please try again." and the toggle’s server text', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const rule = await createRule(session, { name: uniqueName('E2E refused') });
    const page = await signedInPage(browser, 'operator');
    await page.route(`**/v1/rules/${rule.ruleId}`, (route) =>
      ['POST', 'DELETE'].includes(route.request().method())
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' })
        : route.fallback(),
    );
    await page.route(`**/v1/rules/${rule.ruleId}/toggledisabled`, (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: '{"message":"This rule is being changed by someone else."}',
      }),
    );
    await openRules(page, tenantId);
    await searchGrid(page, rule.name);
    const row = gridRow(page, rule.name);
    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('This rule is being changed by someone else.').waitFor();
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Unable to delete rule. Please try again.').waitFor();
    await row.getByRole('button', { name: 'Edit' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit: ${rule.name}` }).waitFor();
    await panel.getByRole('textbox', { name: 'Description' }).fill('A change the server refuses');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Unable to save rule. Please try again.').waitFor();
    await screenshot(page, 'rules-save-failed');
  });

  test('Test runs the unsaved rule over a window and shows subjects, actions and figures', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const rule = await createRule(session, { name: uniqueName('E2E tested') });
    const word = `up-${randomUUID().slice(0, 8)}`;
    await report(session, [
      {
        entityId: randomUUID(),
        timestamp: new Date().toISOString(),
        message: { Value: word, Properties: { BlockName: 'E2E tested pump' } },
      },
    ]);
    const page = await signedInPage(browser, 'operator');
    await openRules(page, tenantId, `?ruleId=${rule.ruleId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit: ${rule.name}` }).waitFor();
    // The saved rule looks for 'down'; the form, unsaved, for the word the packet carried.
    await tab(panel, 'Conditions').click();
    await condition(panel, 2).getByRole('textbox', { name: 'Value' }).fill(word);
    const sent = awaitLater(
      page.waitForRequest((request) => request.url().endsWith('/v1/rules/test') && request.method() === 'POST'),
    );
    await panel.getByRole('button', { name: 'Test', exact: true }).click();
    const test = panel.getByRole('region', { name: 'Test Rule' });
    await choose(test, page, 'Window', 'Last hour');
    await test.getByRole('button', { name: 'Run Test' }).click();
    const body = (await sent).postDataJSON() as {
      window: string;
      rule: { conditions: { RightOperand: string | null }[] };
    };
    expect(body.window).toBe('hour');
    expect(body.rule.conditions[1]!.RightOperand).toBe(word);
    await test.getByText(/\d+ packets? examined from/).waitFor();
    const subjects = test.getByRole('table', { name: 'Subjects' });
    await subjects.getByText(/E2E tested pump/).waitFor();
    expect(await subjects.getByRole('row').count()).toBe(2);
    const actions = test.getByRole('table', { name: 'Actions' });
    expect(await actions.getByRole('row', { name: /Set Colour On match 1/ }).count()).toBe(1);
    await screenshot(page, 'rules-test-panel');
    // Nothing was saved or matched by the test.
    expect((await api<RuleRow>(session, `/v1/rules/${rule.ruleId}`)).conditions[1]).toMatchObject({
      RightOperand: 'down',
    });
  });

  test('closes on recovery: Pending For and an own recovery condition set in the editor; its match shows Pending, Active, then Recovered', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const field = `Load${randomUUID().slice(0, 8)}`;
    const rule = await createRule(session, {
      name: uniqueName('E2E recovering'),
      conditions: [
        { Type: 0, LeftOperand: 3, LeftOperandFieldName: field, Operator: OPERATORS.GreaterThan, RightOperand: '90' },
      ],
      matchActions: [],
    });
    // A new Ingestion rule closes on recovery.
    expect(rule).toMatchObject({ closesOn: 'recovery', pendingFor: null, recoveryConditions: null });
    const page = await signedInPage(browser, 'operator');
    await openRules(page, tenantId, `?ruleId=${rule.ruleId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit: ${rule.name}` }).waitFor();
    await panel
      .getByRole('combobox', { name: 'A Match Closes When' })
      .getByText('The problem is over (recovery)')
      .waitFor();
    // Closing on recovery, the lifetime is the time without data, and Sliding Expiration has no part.
    await panel.getByText('No packet for this long closes a match as no data.', { exact: false }).waitFor();
    expect(await panel.getByRole('checkbox', { name: 'Sliding Expiration' }).count()).toBe(0);
    await panel.getByRole('spinbutton', { name: 'Pending For seconds' }).fill('6');
    await tab(panel, 'Conditions').click();
    const recovery = panel.getByRole('region', { name: 'Recovery' });
    await recovery.getByText('no longer meets the conditions above').waitFor();
    await recovery.getByRole('checkbox', { name: 'Own Recovery Conditions' }).check();
    const below = recovery.getByRole('group', { name: 'Recovery Condition 1' });
    await choose(below, page, 'Left Operand', 'Metrics');
    await below.getByRole('textbox', { name: 'Field Name' }).fill(field);
    await choose(below, page, 'Operator', 'Less Than');
    await below.getByRole('textbox', { name: 'Value' }).fill('80');
    // A recovery condition has no occurrence pattern, and never the tenant.
    expect(await below.getByRole('combobox', { name: 'Occurrence' }).count()).toBe(0);
    await screenshot(page, 'rules-editor-recovery');
    // An occurrence pattern would drop the recovery: the editor says so, and keeps it for the way back.
    // The rule's own condition, after the tenant's.
    const first = panel.getByRole('group', { name: /^Condition \d+$/ }).last();
    await choose(first, page, 'Occurrence', '3 in a row');
    await panel.getByText('saved this way, the rule drops them', { exact: false }).waitFor();
    expect(await recovery.count()).toBe(0);
    await screenshot(page, 'rules-editor-recovery-dropped');
    await choose(first, page, 'Occurrence', 'Every occurrence');
    await recovery.getByRole('checkbox', { name: 'Own Recovery Conditions' }).waitFor();
    expect(await below.getByRole('textbox', { name: 'Value' }).inputValue()).toBe('80');
    expect(await panel.getByText('saved this way, the rule drops them', { exact: false }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await api<RuleRow>(session, `/v1/rules/${rule.ruleId}`)).pendingFor, { timeout: 15_000 })
      .toBe('00:00:06');
    expect((await api<RuleRow>(session, `/v1/rules/${rule.ruleId}`)).recoveryConditions).toEqual([
      expect.objectContaining({
        LeftOperand: 3,
        LeftOperandFieldName: field,
        Operator: OPERATORS.LessThan,
        RightOperand: '80',
      }),
    ]);

    // Above 90: pending, then open once it has held for 6 s; 85 keeps it open; 50 recovers it.
    const entityId = randomUUID();
    const send = (value: number) =>
      report(session, [
        {
          entityId,
          timestamp: new Date().toISOString(),
          message: { Metrics: { [field]: value }, Properties: { BlockName: 'E2E recovering pump' } },
        },
      ]);
    await page.goto(`/${tenantId}/rules?ruleMatchesId=${rule.ruleId}`);
    const table = drawer(page).getByRole('table', { name: `Matches of ${rule.name}` });
    // The first packet goes once the grid has answered (with no match): a page that loads slowly
    // on a busy machine would otherwise first show the match once it is already open.
    await drawer(page).getByText('No Rule Matches Found.', { exact: true }).waitFor();
    await send(95);
    await table.getByText('Pending', { exact: true }).waitFor({ timeout: 30_000 });
    await table.getByText('Active', { exact: true }).waitFor({ timeout: 30_000 });
    await send(85);
    await send(50);
    await table.getByText('Recovered', { exact: true }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'rules-matches-recovered');
  });

  test('acknowledge and silence open matches in bulk from the Rule Matches drawer; the silence shows in Silences, which ends it', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const word = `hot-${randomUUID().slice(0, 8)}`;
    const rule = await createRule(session, {
      name: uniqueName('E2E acknowledged'),
      conditions: [{ Type: 0, LeftOperand: 1, Operator: OPERATORS.Equals, RightOperand: word }],
      matchActions: [],
    });
    await report(
      session,
      ['E2E pump A', 'E2E pump B'].map((name) => ({
        entityId: randomUUID(),
        timestamp: new Date().toISOString(),
        message: { Value: word, Properties: { BlockName: name } },
      })),
    );
    const page = await signedInPage(browser, 'operator');
    await openRules(page, tenantId, `?ruleMatchesId=${rule.ruleId}`);
    const panel = drawer(page);
    const table = panel.getByRole('table', { name: `Matches of ${rule.name}` });
    await table.getByText('E2E pump B').waitFor();
    const actions = panel.getByRole('toolbar', { name: 'Match actions' });
    expect(await actions.getByRole('button', { name: 'Acknowledge' }).isDisabled()).toBe(true);
    await table.getByRole('checkbox', { name: 'Choose every open match' }).check();
    await actions.getByText('2 chosen').waitFor();
    await actions.getByRole('button', { name: 'Acknowledge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Acknowledge 2 matches' });
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Looking at both pumps');
    await dialog.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => table.getByText('Acknowledged by operator').count(), { timeout: 15_000 }).toBe(2);
    await actions.getByText('Choose open matches').waitFor();

    await table.getByRole('checkbox', { name: 'Choose the match of E2E pump A' }).check();
    await actions.getByRole('button', { name: 'Silence' }).click();
    const silence = page.getByRole('dialog', { name: 'Silence 1 match' });
    await choose(silence, page, 'For', '2 hours');
    await silence.getByRole('textbox', { name: 'Note' }).fill('Vendor on site');
    await silence.getByRole('button', { name: 'Silence' }).click();
    await table.getByText(/^Silenced until /).waitFor({ timeout: 15_000 });
    expect(await table.getByText(/^Silenced until /).count()).toBe(1);
    await screenshot(page, 'rules-matches-acknowledged');

    // The silence is listed beside the rules, and ended there.
    await page.goto(`/${tenantId}/rules?silences=list`);
    const silences = drawer(page);
    const list = silences.getByRole('table', { name: 'Silences' });
    // It covers an entity, named by its block name.
    const row = list.getByRole('row', { name: new RegExp(`${rule.name}.*E2E pump [AB] \\(.*Vendor on site`) });
    await row.waitFor();
    await screenshot(page, 'rules-silences');
    // Ending it is asked first: No leaves it, Yes ends it.
    await row.getByRole('button', { name: 'End' }).click();
    await page.getByRole('dialog', { name: 'End Silence' }).getByRole('button', { name: 'No' }).click();
    await page.getByRole('dialog', { name: 'End Silence' }).waitFor({ state: 'hidden' });
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'End' }).click();
    await page.getByRole('dialog', { name: 'End Silence' }).getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);

    // One made ahead, for every entity of a label, from now for two hours (the form's defaults).
    const form = silences.getByRole('form', { name: 'New Silence' });
    await choose(form, page, 'Rule', rule.name);
    // The Entity is chosen among those that reported; here every entity of a label.
    await form.getByRole('combobox', { name: 'Entity' }).click();
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /^E2E pump A \(/ })
      .waitFor();
    await page.getByRole('listbox').getByRole('option', { name: 'Every entity' }).click();
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await form.getByRole('textbox', { name: 'Label' }).fill('E2E pump B');
    await form.getByRole('textbox', { name: 'Note' }).fill('Overhaul');
    await form.getByRole('button', { name: 'Create Silence' }).click();
    await list.getByRole('row', { name: /Label E2E pump B.*Overhaul/ }).waitFor({ timeout: 15_000 });
  });

  test('an open match’s email repeats under the tenant’s policy until it is acknowledged from the drawer', async () => {
    // A tenant of the test's own: its policy repeats nobody else's matches.
    const session = await sessionOf(browser, 'admin');
    const tenant = await createTenant(session, { name: uniqueName('Repeats') });
    const tenantId = tenant.tenantId;
    const page = await signedInPage(browser, 'admin');
    await openRules(page, tenantId);
    // The policy, set on the Rules page: every 15 minutes.
    await page.getByRole('button', { name: 'Notifications' }).click();
    // The dialog names whose policy it is.
    const dialog = page.getByRole('dialog', { name: `Notifications: ${tenant.name}`, exact: true });
    await choose(dialog, page, 'Repeat Notifications', 'Every 15 minutes');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await api<{ repeatEvery: string | null }>(session, `/v1/notificationpolicy/${tenantId}`)).repeatEvery).toBe(
      '00:15:00',
    );

    const { rule, report: reportBlocks } = await mailingRule(session, tenantId, 'E2E repeated');
    await reportBlocks(['E2E siren']);
    const db = await portalDatabase();
    try {
      const matchId = async () =>
        (await db.query<{ id: string }>('SELECT rule_match_id AS id FROM rule_match WHERE rule_id = $1', [rule.ruleId]))
          .rows[0]?.id;
      await expect.poll(matchId, { timeout: 15_000 }).toBeTruthy();
      const id = (await matchId())!;
      const emails = async () =>
        (
          await db.query<{ key: string }>(
            "SELECT key FROM job WHERE task = 'rules.action' AND key LIKE $1 ORDER BY job_id",
            [`${id}:match:%`],
          )
        ).rows.map((row) => row.key.slice(id.length + 1));
      // The clock of the match moved back past the period: the worker's sweep sends it again.
      await db.query("UPDATE rule_match SET created = created - interval '20 minutes' WHERE rule_match_id = $1", [id]);
      await expect.poll(emails, { timeout: 30_000 }).toEqual(['match:0', 'match:repeat:1:0']);

      await openRules(page, tenantId, `?ruleMatchesId=${rule.ruleId}`);
      const table = drawer(page).getByRole('table', { name: `Matches of ${rule.name}` });
      await table.getByRole('checkbox', { name: 'Choose the match of E2E siren' }).check();
      await drawer(page)
        .getByRole('toolbar', { name: 'Match actions' })
        .getByRole('button', { name: 'Acknowledge' })
        .click();
      await page
        .getByRole('dialog', { name: 'Acknowledge 1 match' })
        .getByRole('button', { name: 'Acknowledge' })
        .click();
      await table.getByText('Acknowledged by admin').waitFor({ timeout: 15_000 });
      // Past the period again: acknowledged, it is not sent again by the sweep's next run.
      const moved = await db.query<{ at: Date }>(
        "UPDATE rule_match SET notified = notified - interval '20 minutes' WHERE rule_match_id = $1 RETURNING now() AS at",
        [id],
      );
      await sweptSince(db, 'rules.repeat', moved.rows[0]!.at);
      expect(await emails()).toEqual(['match:0', 'match:repeat:1:0']);
    } finally {
      await db.end();
    }
  }, 120_000);

  test('matches that open together send one email under a policy that groups by rule, and the Test tells so', async () => {
    const session = await sessionOf(browser, 'admin');
    const tenant = await createTenant(session, {
      name: uniqueName('Groups'),
      internalNotificationEmailAddress: 'noc@groups.example',
    });
    const tenantId = tenant.tenantId;
    const page = await signedInPage(browser, 'admin');
    await openRules(page, tenantId);
    await page.getByRole('button', { name: 'Notifications' }).click();
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    await choose(dialog, page, 'Group Notifications', 'By rule');
    await choose(dialog, page, 'Wait For Others', '10 seconds');
    await screenshot(page, 'rules-notification-policy');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(
      await api<{ groupBy: string | null; groupWait: string }>(session, `/v1/notificationpolicy/${tenantId}`),
    ).toMatchObject({ groupBy: 'rule', groupWait: '00:00:10' });

    const { rule, report: reportBlocks } = await mailingRule(session, tenantId, 'E2E grouped');
    await reportBlocks(['E2E fan 1', 'E2E fan 2', 'E2E fan 3']);
    const db = await portalDatabase();
    try {
      const emails = async () =>
        (
          await db.query<{ subject: string; body: string }>(
            `SELECT e.subject, e.body FROM email_outbox e
             WHERE e.tenant_id = $1 AND e.job_key LIKE '%:match:%' ORDER BY e.email_id`,
            [tenantId],
          )
        ).rows;
      // Held for ten seconds, then one email for the three (the group sweep runs every 5 s).
      await expect.poll(async () => (await emails()).length, { timeout: 40_000 }).toBe(1);
      // And none more once the sweep has run again.
      await sweptSince(db, 'rules.group');
      const [sent] = await emails();
      expect(await emails()).toHaveLength(1);
      expect(sent!.subject).toBe(`Rule notification: ${rule.name}: 3 matches`);
      for (const name of ['E2E fan 1', 'E2E fan 2', 'E2E fan 3']) expect(sent!.body).toContain(name);
    } finally {
      await db.end();
    }

    // The rule's Test replays the policy over the same packets.
    await openRules(page, tenantId, `?ruleId=${rule.ruleId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit: ${rule.name}` }).waitFor();
    await panel.getByRole('button', { name: 'Test', exact: true }).click();
    const test = panel.getByRole('region', { name: 'Test Rule' });
    await choose(test, page, 'Window', 'Last hour');
    await test.getByRole('button', { name: 'Run Test' }).click();
    const notifications = test.getByText(
      'Notifications: 3 matches would have sent 1 notification (grouped by rule, each group waiting 10 seconds).',
    );
    await notifications.waitFor();
    await notifications.scrollIntoViewIfNeeded();
    await screenshot(page, 'rules-test-notifications');
  }, 120_000);

  test('Rule Matches lists the rule’s matches, latest expiry first, with why each fired', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const word = `down-${randomUUID().slice(0, 8)}`;
    const entityId = randomUUID();
    const rule = await createRule(session, {
      name: uniqueName('E2E matched'),
      conditions: [
        { Type: 0, LeftOperand: 1, Operator: OPERATORS.Equals, RightOperand: word },
        { Type: 0, LeftOperand: 6, Operator: OPERATORS.Equals, RightOperand: entityId },
      ],
      matchActions: [],
    });
    const tenant = await api<{ name: string }>(session, `/v1/tenants(${tenantId})`);
    // An Ingestion rule matches as the packet is taken in.
    await report(session, [
      {
        entityId,
        timestamp: new Date().toISOString(),
        message: { Value: word, Properties: { BlockName: 'E2E pump' } },
      },
    ]);
    const page = await signedInPage(browser, 'operator');
    await openRules(page, tenantId);
    await searchGrid(page, rule.name);
    await gridRow(page, rule.name).getByRole('button', { name: 'Rule Matches' }).click();
    await page.waitForURL((url) => url.searchParams.get('ruleMatchesId') === rule.ruleId);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Rule Matches: ${rule.name}` }).waitFor();
    const table = panel.getByRole('table', { name: `Matches of ${rule.name}` });
    await table.getByText('E2E pump').waitFor();
    expect(await table.getByRole('columnheader', { name: 'Rule' }).count()).toBe(0);
    // Its last column reads for open and closed matches alike: when it closes, or when it ended.
    expect((await table.getByRole('columnheader').allTextContents()).map((header) => header.trim()).slice(-4)).toEqual([
      'Matches',
      'First Match',
      'Last Match',
      'Ends',
    ]);
    await table.getByText('Active').waitFor();
    await table.getByRole('button', { name: 'Why it fired' }).click();
    await table.getByText(`Value Equals ${word} — seen ${word}`).waitFor();
    // Ids are named: the rule's tenant by its name, the matched entity by its block name.
    await table.getByText(`Tenant Equals ${tenant.name} — seen ${tenant.name}`).waitFor();
    await table.getByText('Entity Equals E2E pump — seen E2E pump').waitFor();
    await screenshot(page, 'rules-matches-drawer');
  });
});

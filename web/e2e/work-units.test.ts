import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { RELATED_SEARCH_DEBOUNCE_MS, WORK_UNITS_POLL_MS } from '@cfs/contracts/constants';
import { WORK_UNIT_MESSAGES, WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import { RULE_MESSAGES } from '@cfs/contracts/rules';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { INVALID_DATE_MESSAGE } from '@cfs/contracts/values/fields';
import {
  api,
  awaitLater,
  browser,
  choose,
  createChangeRequest,
  createWorkUnit,
  drawer,
  gridRow,
  pauseClock,
  screenshot,
  screenshotAtWidths,
  searchGrid,
  serverCall,
  sessionOf,
  signedInPage,
  uniqueName,
  updateWorkUnit,
  type ListResponse,
  type WorkUnitRow,
} from './support';

/**
 * Work units in the browser (spec 001 §2 "Work units list", "Work unit panel", §4, §5, §8; issue 4):
 * the list and its filter chips, auto-refresh and CSV; creating, acknowledging, editing and noting
 * an incident; a concurrent edit from a second browser refused with the spec's message; a change
 * request approved by approver 1 (operator) and declined by approver 2 (admin); an incident
 * migrated to a change request; the old experience. Each test makes its own work units through
 * the API and finds them by their unique titles.
 */

const OPERATOR_MAIL = 'operator@cfs.example';
const ADMIN_MAIL = 'admin@cfs.example';
const CONFLICT =
  'This Work Unit was modified by another user. Please discard your changes without saving and refresh it.';

/** The grid's first columns in their order (spec 001 §2): those a wide screen shows without scrolling. */
const FIRST_COLUMNS = ['ID', 'Tenant', 'Title', 'Severity', 'State', 'Assigned To', 'Stakeholder Name'];
/** The grid's other columns, in their order after the first ones, Contoso's custom fields last: drawn once scrolled to. */
const LATER_COLUMNS = [
  'Stakeholder Phone',
  'Stakeholder Email',
  'Last Updated',
  'Created',
  'Work Unit Type',
  'Assignment Group',
  'Response',
  'Resolution',
  'Business Unit',
  'Asset Tag',
];

const workUnit = (page: Page, id: number) => serverCall<WorkUnitRow>(page, `/v1/workunits(${id})`);

/** Searches the directory in a people field and picks the person. */
async function pickPerson(scope: Locator, page: Page, label: string, search: string, option: string): Promise<void> {
  const field = scope.getByRole('combobox', { name: label });
  await field.fill(search);
  await page.getByRole('option', { name: option }).click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
  await expect.poll(() => field.inputValue()).toBe(option);
}

/** Types a date and time into the date-time field, section by section as it shows them (DD MMM YYYY HH mm). */
async function typeDateTime(scope: Locator, page: Page, label: string, entry: string): Promise<void> {
  const group = scope.getByRole('group', { name: label });
  await group.getByRole('spinbutton', { name: 'Day' }).click();
  await page.keyboard.type(entry);
  // What the field took, before anything relies on it: 05Mar20271000 shows as 5/Mar/2027 10:00.
  const [, day, month, year, hour, minute] = /^(\d\d)(\w{3})(\d{4})(\d\d)(\d\d)$/.exec(entry) ?? [];
  await expect
    .poll(() => group.locator('..').locator('input').first().inputValue())
    .toBe(`${Number(day)}/${month}/${year} ${hour}:${minute}`);
}

/**
 * Clicks Save and waits for the PATCH (or PUT) it sends; answers its status. A Save that sends
 * nothing fails at once with what the panel showed (a field's message, a disabled Save), and one
 * whose request gets no answer fails saying so: the two look alike from a timeout alone.
 */
async function save(page: Page, panel: Locator, method: 'PATCH' | 'PUT' = 'PATCH'): Promise<number> {
  const sent = awaitLater(
    page.waitForRequest((candidate) => candidate.method() === method && candidate.url().includes('/workunits'), {
      timeout: 20_000,
    }),
  );
  await panel.getByRole('button', { name: 'Save', exact: true }).click();
  const request = await sent.catch(async () => {
    const shown = await panel.innerText({ timeout: 2_000 }).catch(() => '(no text)');
    throw new Error(`Save sent no ${method} within 20 s; the panel showed: ${shown.replace(/\s*\n\s*/g, ' · ')}`);
  });
  const response = await request.response();
  if (!response) throw new Error(`The ${method} Save sent got no answer: ${request.failure()?.errorText ?? ''}`);
  return response.status();
}

function idFromUrl(page: Page): number {
  return Number(new URL(page.url()).searchParams.get('workUnitId'));
}

/** The list state the address holds (`?search=`). */
function listState(page: Page): { filters?: { field: string; value: unknown }[] } {
  return JSON.parse(new URL(page.url()).searchParams.get('search') ?? '{}') as {
    filters?: { field: string; value: unknown }[];
  };
}

/** A request for the work units list (not the related search or one unit). */
function isListRequest(request: Request): boolean {
  const url = new URL(request.url());
  return request.method() === 'GET' && url.pathname === '/v1/workunits' && url.searchParams.has('$count');
}

/** The work units list with the grid's first answer in. */
async function openList(page: Page, query = ''): Promise<void> {
  await page.goto(`/workunitsv2${query}`);
  await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
  await page.locator('.MuiDataGrid-row, .MuiDataGrid-overlay').first().waitFor();
}

function chip(page: Page, label: string): Locator {
  return page.getByRole('toolbar', { name: 'Filters' }).getByRole('button', { name: label });
}

describe('work units (operator, and admin in a second browser)', () => {
  test('lists New incidents by default with the spec columns, severity colours and the (ack) link', async () => {
    const operator = await sessionOf(browser, 'operator');
    const tag = uniqueName('E2E severity order');
    // One New incident per severity, made in an order the list must not keep.
    for (const severityId of [3, 0, 4, 2, 1])
      await createWorkUnit(operator, { title: `${tag} Sev${severityId}`, severityId });
    // A screen wide enough for every column (a narrower one leaves the last ones to the column panel).
    const page = await signedInPage(browser, 'operator', { width: 3400 });
    await openList(page);
    expect(await page.title()).toMatch(/^Work Units - /);
    for (const header of FIRST_COLUMNS) await page.getByRole('columnheader', { name: header }).waitFor();
    // The grid renders the columns in view: scroll across to each of the others, then back.
    const scroller = page.locator('.MuiDataGrid-virtualScroller');
    for (const header of LATER_COLUMNS) {
      for (
        let step = 0;
        step < 10 && !(await page.getByRole('columnheader', { name: header, exact: true }).isVisible());
        step++
      ) {
        await scroller.evaluate((element) => element.scrollBy({ left: element.clientWidth / 2 }));
      }
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await scroller.evaluate((element) => element.scrollTo({ left: 0 }));
    await chip(page, 'State: New').waitFor();
    await chip(page, 'Type: Incident').waitFor();
    expect(await page.getByLabel('Auto Refresh').isChecked()).toBe(true);

    // Severity ascending by default; cells coloured by level, except Sev4.
    await searchGrid(page, tag);
    const severities = page.locator('[role="row"] [data-field="severityId"][role="gridcell"]');
    await expect.poll(() => severities.count()).toBe(5);
    const cells = await severities.evaluateAll((nodes) =>
      nodes.map((node) => ({ text: node.textContent, background: getComputedStyle(node).backgroundColor })),
    );
    expect(cells.map((cell) => cell.text)).toEqual(['Sev0', 'Sev1', 'Sev2', 'Sev3', 'Sev4']);
    for (const cell of cells) expect(cell.background === 'rgba(0, 0, 0, 0)').toBe(cell.text === 'Sev4');
    expect(await page.getByRole('button', { name: '(ack)' }).count()).toBe(5);
    await screenshot(page, 'work-units-list');
  });

  test('creates an incident from the Create menu: Sev0, New, the route tenant, "Please enter the title" first', async () => {
    const title = uniqueName('E2E printer on fire');
    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await page.getByRole('button', { name: 'Create' }).click();
    for (const type of ['Change Request', 'Incident', 'Intake'])
      await page.getByRole('menuitem', { name: type }).waitFor();
    await page.getByRole('menuitem', { name: 'Incident' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Work Unit' }).waitFor();
    expect(await panel.getByRole('combobox', { name: 'Severity' }).textContent()).toBe('Sev0');
    expect(await panel.getByRole('combobox', { name: 'State' }).textContent()).toBe('New');
    expect(await panel.getByRole('combobox', { name: 'Tenant' }).textContent()).toBe('Contoso');
    // A new unit may only be New (spec 001 §4); no tabs before it is saved.
    await panel.getByRole('combobox', { name: 'State' }).click();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['New']);
    await page.keyboard.press('Escape');
    expect(await panel.getByRole('tab').count()).toBe(0);

    await panel.getByRole('textbox', { name: 'Title' }).fill('ab');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('The title needs at least 3 characters.').waitFor();

    await panel.getByRole('textbox', { name: 'Title' }).fill(title);
    await panel.getByRole('textbox', { name: 'Description' }).fill('The printer on floor 3 smells of smoke.');
    expect(await save(page, panel, 'PUT')).toBeLessThan(300);
    await panel.getByRole('heading', { name: new RegExp(`^Edit Work Unit #\\d+: ${title}$`) }).waitFor();
    const id = idFromUrl(page);
    expect(id).toBeGreaterThan(0);
    expect(await workUnit(page, id)).toMatchObject({
      title,
      severityId: 0,
      stateId: WORK_UNIT_STATES.New,
      description: 'The printer on floor 3 smells of smoke.',
    });
    await panel.getByRole('tab', { name: 'Work Unit' }).waitFor();
    await panel.getByRole('tab', { name: 'Properties' }).waitFor();
    await panel.getByRole('tab', { name: 'Related' }).waitFor();
    await expect.poll(() => page.title()).toMatch(new RegExp(`^WU #${id} - `));
    await screenshot(page, 'work-units-panel-incident');

    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => page.title()).toMatch(/^Work Units - /);
  });

  test('acknowledges an incident from the list: Acknowledged, assigned to the current user, "Work unit #{id} acknowledged."', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'), {
      title: uniqueName('E2E to acknowledge'),
    });
    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await searchGrid(page, unit.title);
    await gridRow(page, unit.title).getByRole('button', { name: '(ack)' }).click();
    await page.getByText(`Work unit #${unit.workUnitId} acknowledged.`).waitFor();
    expect(await workUnit(page, unit.workUnitId)).toMatchObject({
      stateId: WORK_UNIT_STATES.Acknowledged,
      assignedTo: OPERATOR_MAIL,
    });
  });

  test('shows people as "displayName (mail)": the Assigned To column, and the panel\'s Created and Last Updated lines', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'), {
      title: uniqueName('E2E named people'),
      assignedTo: OPERATOR_MAIL,
    });
    const page = await signedInPage(browser, 'admin');
    await openList(page);
    await searchGrid(page, unit.title);
    const row = gridRow(page, unit.title);
    await row
      .locator('[data-field="assignedTo"]')
      .getByText(`Oscar Operator (${OPERATOR_MAIL})`, { exact: true })
      .waitFor();
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    // Stored as the user name 'operator' (created_by, modified_by).
    await panel
      .getByText(new RegExp(`by Oscar Operator \\(${OPERATOR_MAIL}\\)$`))
      .first()
      .waitFor();
    const details = await panel
      .locator('dl dt')
      .evaluateAll((terms) =>
        terms.map((term) => `${term.textContent ?? ''}: ${term.nextElementSibling?.textContent ?? ''}`),
      );
    expect(details.find((line) => line.startsWith('Created:'))).toMatch(
      / by Oscar Operator \(operator@cfs\.example\)$/,
    );
    expect(details.find((line) => line.startsWith('Last Updated:'))).toMatch(
      / by Oscar Operator \(operator@cfs\.example\)$/,
    );
    await screenshot(page, 'work-unit-people-named');
  });

  test('the panel shows the unit’s service level clocks: what is left of each, then the response met', async () => {
    const session = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(session, { title: uniqueName('E2E clocks'), severityId: 1 });
    const clocks = () =>
      api<{ kind: string; status: string }[]>(session, `/v1/servicelevels/timers/${unit.workUnitId}`);
    // The worker starts them from the unit's events.
    await expect.poll(async () => (await clocks()).length, { timeout: 15_000 }).toBe(2);
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const group = drawer(page).getByRole('group', { name: 'Service levels' });
    await group.getByText(/^Response: \d+ minutes left$/).waitFor();
    await group.getByText(/^Resolution: \d+ hours? \d+ minutes left$/).waitFor();
    await screenshot(page, 'work-unit-service-level-clocks');
    // On a phone the clocks wrap, each whole within the screen.
    await page.setViewportSize({ width: 375, height: 800 });
    for (const box of await group
      .locator('.MuiChip-root')
      .evaluateAll((chips) => chips.map((chip) => chip.getBoundingClientRect().right)))
      expect(box).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });
    await updateWorkUnit(session, unit.workUnitId, { stateId: WORK_UNIT_STATES.Acknowledged });
    await expect
      .poll(async () => (await clocks()).find((clock) => clock.kind === 'response')?.status, { timeout: 15_000 })
      .toBe('met');
    await page.reload();
    await group.getByText('Response: met').waitFor();
  });

  test('a change saved in the panel shows on its clocks at once, not at their next reading', async () => {
    const session = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(session, { title: uniqueName('E2E clocks saved'), severityId: 1 });
    await expect
      .poll(async () => (await api<unknown[]>(session, `/v1/servicelevels/timers/${unit.workUnitId}`)).length, {
        timeout: 15_000,
      })
      .toBe(2);
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    const group = panel.getByRole('group', { name: 'Service levels' });
    await group.getByText(/^Response: \d+ minutes left$/).waitFor();
    await choose(panel, page, 'State', 'Acknowledged');
    const readings: number[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/v1/servicelevels/timers/${unit.workUnitId}`)) readings.push(Date.now());
    });
    const saved = Date.now();
    expect(await save(page, panel)).toBe(200);
    // The clocks are read every 15 s; a save reads them again at once and once the engine has moved them.
    await expect.poll(() => readings.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    expect(readings[1]! - saved).toBeLessThan(5_000);
    await group.getByText('Response: met').waitFor();
  });

  test('edits an acknowledged incident: every state is offered past New, the assignment group prompt, a saved JSON Patch', async () => {
    const operator = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(operator);
    await updateWorkUnit(operator, unit.workUnitId, {
      stateId: WORK_UNIT_STATES.Acknowledged,
      assignedTo: OPERATOR_MAIL,
    });
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit Work Unit #${unit.workUnitId}: ${unit.title}` }).waitFor();
    await panel.getByRole('combobox', { name: 'State' }).click();
    expect(await page.getByRole('listbox').getByRole('option').count()).toBe(8);
    await page.getByRole('listbox').getByRole('option', { name: 'In Progress', exact: true }).click();

    // Someone is assigned and the state is not New: clearing the assignee and setting New is offered (spec 001 §4).
    await choose(panel, page, 'Assignment Group', 'Network');
    const prompt = page.getByRole('dialog', { name: 'Assignment Group' });
    await prompt.getByText('Do you want to clear the assignee and set the state to New?').waitFor();
    await prompt.getByRole('button', { name: 'No' }).click();

    await choose(panel, page, 'Severity', 'Sev0');
    await panel
      .getByRole('textbox', { name: 'Description' })
      .fill('The printer on floor 3 is on fire. Facilities informed.');
    expect(await save(page, panel)).toBe(200);
    await expect.poll(() => panel.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect(await workUnit(page, unit.workUnitId)).toMatchObject({
      severityId: 0,
      stateId: WORK_UNIT_STATES.InProgress,
      assignedTo: OPERATOR_MAIL,
      assignmentGroup: 'Network',
      description: 'The printer on floor 3 is on fire. Facilities informed.',
    });
  });

  test('a stakeholder is named completely: with a name only, Save asks for the email and the phone, without the name for the name, and sends nothing', async () => {
    const operator = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(operator);
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit Work Unit #${unit.workUnitId}: ${unit.title}` }).waitFor();
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.url());
    });
    await panel.getByRole('textbox', { name: 'Stakeholder Name' }).fill('Dana Reyes');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText(WORK_UNIT_MESSAGES.stakeholderEmailRequired).waitFor();
    await panel.getByText(WORK_UNIT_MESSAGES.stakeholderPhoneRequired).waitFor();
    await panel.getByRole('textbox', { name: 'Stakeholder Email' }).scrollIntoViewIfNeeded();
    await screenshotAtWidths(page, 'work-unit-stakeholder-required');
    expect(patches).toEqual([]);

    await panel.getByRole('textbox', { name: 'Stakeholder Email' }).fill('dana.reyes@contoso.example');
    await panel.getByRole('textbox', { name: 'Stakeholder Phone' }).fill('+1 555 0100');
    // The name is as required as the email and the phone.
    await panel.getByRole('textbox', { name: 'Stakeholder Name' }).fill('');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText(WORK_UNIT_MESSAGES.stakeholderNameRequired).waitFor();
    expect(patches).toEqual([]);
    await panel.getByRole('textbox', { name: 'Stakeholder Name' }).fill('Dana Reyes');
    expect(await save(page, panel)).toBe(200);
    expect(await workUnit(page, unit.workUnitId)).toMatchObject({
      stakeHolderFullName: 'Dana Reyes',
      stakeHolderEmailAddress: 'dana.reyes@contoso.example',
      stakeHolderPhoneNumber: '+1 555 0100',
    });
  });

  test('adds an internal and an external note; the external notes view shows the external one only', async () => {
    const operator = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(operator);
    await updateWorkUnit(operator, unit.workUnitId, { stateId: WORK_UNIT_STATES.Acknowledged });
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    const notes = panel.getByRole('region', { name: 'Notes' });
    await notes.getByRole('textbox', { name: 'New note' }).waitFor();
    // Call Me is the end user's (spec 001 §2), not offered to staff.
    expect(await notes.getByRole('button', { name: 'Call Me' }).count()).toBe(0);
    // The history is fetched again after a note is added; the operator starts the next note
    // before that answer arrives, and what they type stays.
    let releaseHistory = () => {};
    const historyHeld = new Promise<void>((resolve) => (releaseHistory = resolve));
    const isHistory = (url: URL) => url.pathname.includes('GetWorkUnitHistoryRecords');
    await page.route(isHistory, async (route) => {
      await historyHeld;
      await route.fallback();
    });
    await notes.getByRole('textbox', { name: 'New note' }).fill('Internal: extinguisher used, printer unplugged.');
    await notes.getByRole('button', { name: 'Add Note' }).click();
    await page.getByText('Note added successfully!').first().waitFor();
    await notes.getByRole('textbox', { name: 'New note' }).fill('External: a replacement printer arrives tomorrow.');
    releaseHistory();
    await notes.getByText('Internal: extinguisher used, printer unplugged.').waitFor();
    await page.unroute(isHistory);
    await expect.poll(() => notes.getByRole('button', { name: 'Add Note' }).isEnabled()).toBe(true);
    expect(await notes.getByRole('textbox', { name: 'New note' }).inputValue()).toBe(
      'External: a replacement printer arrives tomorrow.',
    );
    await notes.getByRole('checkbox', { name: 'External note' }).check();
    await notes.getByRole('button', { name: 'Add Note' }).click();
    await notes.getByText('External: a replacement printer arrives tomorrow.').waitFor();
    // The server writes its own records of the field and state changes.
    await notes.getByText('Work Unit State Change').first().waitFor();
    await notes.scrollIntoViewIfNeeded();
    await screenshot(page, 'work-units-notes');

    await notes.getByRole('button', { name: 'External notes' }).click();
    await notes.getByText('External: a replacement printer arrives tomorrow.').waitFor();
    await expect.poll(() => notes.getByText('Internal: extinguisher used, printer unplugged.').count()).toBe(0);
    await notes.getByRole('button', { name: 'All history' }).click();
    await notes.getByText('Internal: extinguisher used, printer unplugged.').waitFor();
  });

  test('refuses a concurrent edit from a second browser with the spec message; discard and refresh shows the winner', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'));
    const page = await signedInPage(browser, 'operator');
    const adminPage = await signedInPage(browser, 'admin');
    const heading = `Edit Work Unit #${unit.workUnitId}: ${unit.title}`;
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: heading }).waitFor();
    await adminPage.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const adminPanel = drawer(adminPage);
    await adminPanel.getByRole('heading', { name: heading }).waitFor();

    await panel.getByRole('textbox', { name: 'Title' }).fill(`${unit.title} (operator)`);
    expect(await save(page, panel)).toBe(200);

    await adminPanel.getByRole('textbox', { name: 'Title' }).fill(`${unit.title} (admin)`);
    expect(await save(adminPage, adminPanel)).toBe(409);
    await adminPanel.getByText(CONFLICT).waitFor();
    await screenshot(adminPage, 'work-units-conflict');

    await adminPanel.getByRole('button', { name: 'Discard and refresh' }).click();
    await expect
      .poll(() => adminPanel.getByRole('textbox', { name: 'Title' }).inputValue())
      .toBe(`${unit.title} (operator)`);
    expect((await workUnit(page, unit.workUnitId)).title).toBe(`${unit.title} (operator)`);
  });

  test('creates a change request; approver 1 (operator) approves', async () => {
    const title = uniqueName('E2E firmware rollout');
    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('menuitem', { name: 'Change Request' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Work Unit' }).waitFor();
    await panel.getByRole('textbox', { name: 'Title' }).fill(title);
    // The change request fields are required (spec 001 §5).
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Please enter the implementation plan.').waitFor();
    await panel.getByText('Please choose approver 1.').waitFor();

    await panel.getByRole('textbox', { name: 'Resolution' }).fill('Firmware 2.4 on all floor printers.');
    await panel
      .getByRole('textbox', { name: 'Implementation Plan' })
      .fill('Push firmware through the print server, one floor at a time.');
    await panel.getByRole('textbox', { name: 'Rollback Plan' }).fill('Reflash firmware 2.3 from the print server.');
    await panel.getByRole('textbox', { name: 'Affected Resources' }).fill('Printers on floors 1-5');
    await panel.getByRole('textbox', { name: 'Environment' }).fill('Production');
    await panel.getByRole('textbox', { name: 'Expected CFS Alerts' }).fill('Printer offline alerts during the window');
    await typeDateTime(panel, page, 'Planned Finish Time', '05Mar20271000');
    await typeDateTime(panel, page, 'Planned Start Time', '05Mar20271100');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Planned Finish Time must be equal to or greater than Planned Start Time.').waitFor();
    await typeDateTime(panel, page, 'Planned Finish Time', '05Mar20271300');
    // Nobody names themselves approver: the operator's own name is refused with a message.
    await pickPerson(panel, page, 'Approver 1', 'oscar', `Oscar Operator (${OPERATOR_MAIL})`);
    expect(await save(page, panel, 'PUT')).toBe(400);
    await panel
      .getByText('You cannot name yourself as an approver; ask someone else to approve the change.')
      .first()
      .waitFor();
    // A unit not saved yet has nothing to refresh: the panel says only what is wrong.
    expect(await panel.getByText('Please refresh the Work Unit and try again.').count()).toBe(0);
    await pickPerson(panel, page, 'Approver 1', 'ada', `Ada Admin (${ADMIN_MAIL})`);
    // Two approvals come from two people: the form refuses one person named twice before sending anything.
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().includes('/workunits')) sent.push(request.url());
    });
    await pickPerson(panel, page, 'Approver 2', 'ada', `Ada Admin (${ADMIN_MAIL})`);
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Approver 2 must be someone other than Approver 1.').waitFor();
    expect(sent).toEqual([]);
    await panel.getByRole('combobox', { name: 'Approver 2' }).fill('');
    expect(await save(page, panel, 'PUT')).toBeLessThan(300);
    await panel.getByRole('heading', { name: new RegExp(`^Edit Work Unit #\\d+: ${title}$`) }).waitFor();
    const id = idFromUrl(page);

    const approver1 = panel.getByTestId('approver-1');
    await approver1.getByText('Pending approval').waitFor();
    // Only the signed-in approver gets the controls.
    expect(await approver1.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await approver1.scrollIntoViewIfNeeded();
    await screenshot(page, 'work-units-panel-change-request');

    const adminPage = await signedInPage(browser, 'admin');
    await adminPage.goto(`/workunitsv2?workUnitId=${id}`);
    const adminPanel = drawer(adminPage);
    await adminPanel.getByRole('heading', { name: `Edit Work Unit #${id}: ${title}` }).waitFor();
    await adminPanel.getByTestId('approver-1').getByRole('button', { name: 'Approve' }).click();
    await adminPanel.getByTestId('approver-1').getByText(`Approved by Ada Admin (${ADMIN_MAIL})`).waitFor();
    expect((await workUnit(adminPage, id)).approved1By).toBe(ADMIN_MAIL);
  });

  test('approver 1 (admin) declines with notes: the change request is Canceled and shows the notes', async () => {
    const operator = await sessionOf(browser, 'operator');
    const change = await createChangeRequest(operator, { approver1: ADMIN_MAIL });
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/workunitsv2?workUnitId=${change.workUnitId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit Work Unit #${change.workUnitId}: ${change.title}` }).waitFor();
    const approver1 = panel.getByTestId('approver-1');
    await approver1.getByRole('button', { name: 'Decline' }).click();
    const dialog = page.getByRole('dialog', { name: 'Decline Change Request' });
    expect(await dialog.getByRole('button', { name: 'Decline' }).isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Notes' }).fill('Not during the quarter-end freeze.');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await approver1.getByText(`Declined by Ada Admin (${ADMIN_MAIL})`).waitFor();
    await approver1.getByText('Notes: Not during the quarter-end freeze.').waitFor();
    await expect.poll(() => panel.getByRole('combobox', { name: 'State' }).textContent()).toBe('Canceled');
    expect(await workUnit(page, change.workUnitId)).toMatchObject({
      stateId: WORK_UNIT_STATES.Canceled,
      declined1By: ADMIN_MAIL,
      decision1Notes: 'Not during the quarter-end freeze.',
    });
    await approver1.scrollIntoViewIfNeeded();
    await screenshot(page, 'work-units-change-request-declined');
  });

  test('migrates an incident to a change request from the footer menu; a second time warns', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'));
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit Work Unit #${unit.workUnitId}: ${unit.title}` }).waitFor();
    expect(await panel.getByRole('region', { name: 'Change Request' }).count()).toBe(0);
    await panel.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Change type to Change Request' }).click();
    expect(await panel.getByRole('combobox', { name: 'Work Unit Type' }).textContent()).toBe('Change Request');
    const change = panel.getByRole('region', { name: 'Change Request' });
    await change.waitFor();

    await panel.getByRole('textbox', { name: 'Resolution' }).fill('Printer replaced.');
    await change.getByRole('textbox', { name: 'Implementation Plan' }).fill('Swap the printer.');
    await change.getByRole('textbox', { name: 'Rollback Plan' }).fill('None needed.');
    await change.getByRole('textbox', { name: 'Affected Resources' }).fill('Floor 3 printer');
    await change.getByRole('textbox', { name: 'Environment' }).fill('Office');
    await change.getByRole('textbox', { name: 'Expected CFS Alerts' }).fill('None');
    await typeDateTime(change, page, 'Planned Start Time', '01Apr20270900');
    await typeDateTime(change, page, 'Planned Finish Time', '01Apr20271000');
    await pickPerson(change, page, 'Approver 1', 'ada', `Ada Admin (${ADMIN_MAIL})`);
    expect(await save(page, panel)).toBe(200);
    expect((await workUnit(page, unit.workUnitId)).workUnitTypeId).toBe(2);

    await panel.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Change type to Change Request' }).click();
    await page.getByText('This work unit already is a Change Request.').waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
  });

  test('a date typed before the page has run its timers keeps the date, not "Please enter a valid date"', async () => {
    const page = await signedInPage(browser, 'operator', { clock: true });
    await openList(page);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('menuitem', { name: 'Change Request' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Work Unit' }).waitFor();
    const group = panel.getByRole('group', { name: 'Planned Start Time' });
    const field = panel.locator('.MuiPickersTextField-root', {
      has: page.getByRole('group', { name: 'Planned Start Time' }),
    });
    // A busy page runs the keys first and its timers after them, as a quick typist on a slow machine meets it.
    await pauseClock(page);
    await group.getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.type('01Apr20270900');
    await page.clock.runFor(100);
    await page.clock.resume();
    await expect.poll(() => field.locator('input').first().inputValue()).toBe('1/Apr/2027 09:00');
    // Save checks the form: the title is missing, the date is not.
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText(WORK_UNIT_MESSAGES.titleRequired).waitFor();
    expect(await field.textContent()).not.toContain(INVALID_DATE_MESSAGE);
  });

  test('relates a work unit from the Related tab (the search is sent once, 500 ms after typing), links its title and removes it again', async () => {
    const operator = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(operator);
    const other = await createWorkUnit(operator, { title: uniqueName('E2E related') });
    const page = await signedInPage(browser, 'operator', { clock: true });
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}&tab=related`);
    const panel = drawer(page);
    await panel.getByText('No related Work Units found.').waitFor();
    // Its rule matches (spec 001: GET v1/rulematches for related rule matches): none yet.
    await panel.getByRole('region', { name: 'Related rule matches' }).getByText(RULE_MESSAGES.noRuleMatches).waitFor();

    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (
        url.pathname === '/v1/workunits' &&
        (url.searchParams.get('$filter') ?? '').includes('contains(tolower(title)')
      )
        searches.push(url.search);
    });
    await pauseClock(page);
    await panel.getByRole('combobox', { name: 'Relate a work unit' }).fill(String(other.workUnitId));
    await page.clock.runFor(RELATED_SEARCH_DEBOUNCE_MS - 1);
    expect(searches).toEqual([]);
    const sent = awaitLater(
      page.waitForRequest(
        (request) =>
          new URL(request.url()).pathname === '/v1/workunits' &&
          (new URL(request.url()).searchParams.get('$filter') ?? '').includes('contains(tolower(title)'),
      ),
    );
    await page.clock.runFor(1);
    await sent;
    await page.clock.resume();
    const option = page.getByRole('option', { name: `#${other.workUnitId} ${other.title}` });
    await option.waitFor();
    expect(searches).toHaveLength(1);
    await option.click();
    const table = panel.getByRole('table', { name: 'Related Work Units' });
    // The title is a link to the related unit (a new tab on Ctrl, ⌘ or middle click), without this panel's tab.
    const title = table.getByRole('link', { name: other.title });
    await title.waitFor();
    const href = new URL((await title.getAttribute('href')) ?? '', page.url());
    expect(href.pathname).toBe(new URL(page.url()).pathname);
    expect(href.searchParams.get('workUnitId')).toBe(String(other.workUnitId));
    expect(href.searchParams.has('tab')).toBe(false);
    await table.getByText('New').waitFor();
    expect(await panel.getByRole('tab', { name: /Related/ }).textContent()).toContain('1');
    await screenshot(page, 'work-units-related');
    await table.getByRole('button', { name: `Remove relation ${other.workUnitId}` }).click();
    await panel.getByText('No related Work Units found.').waitFor();
    await panel.getByRole('tab', { name: 'Properties' }).click();
    await panel.getByText('No properties found.').waitFor();
  });

  test('opens a unit from its publicWorkUnitId; with a protocolId it opens none and lists that protocol', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'));
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/workunitsv2?publicWorkUnitId=${unit.publicWorkUnitId}`);
    await page.waitForURL(
      (url) =>
        url.searchParams.get('workUnitId') === String(unit.workUnitId) && !url.searchParams.has('publicWorkUnitId'),
    );
    await drawer(page)
      .getByRole('heading', { name: `Edit Work Unit #${unit.workUnitId}: ${unit.title}` })
      .waitFor();

    // The list asks for that protocol's units only.
    const protocolList = awaitLater(
      page.waitForResponse((response) => {
        const url = new URL(response.request().url());
        return (
          url.pathname.endsWith('/workunits') && (url.searchParams.get('$filter') ?? '').includes('protocolId eq 5')
        );
      }),
    );
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}&protocolId=5`);
    expect((await protocolList).ok()).toBe(true);
    await chip(page, 'Protocol #5').waitFor();
    await page.waitForURL((url) => !url.searchParams.has('workUnitId'));
    // The grid has answered (a row or its empty overlay) before the drawers are counted.
    await page.locator('.MuiDataGrid-row, .MuiDataGrid-overlay').first().waitFor();
    expect(await drawer(page).count()).toBe(0);
  });

  test('Create > Intake opens the intake panel and its tenant selection panel first', async () => {
    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('menuitem', { name: 'Intake' }).click();
    const selection = drawer(page).filter({ has: page.getByRole('heading', { name: 'Select Tenant' }) });
    await selection.getByRole('combobox', { name: 'Tenant' }).waitFor();
    await selection.getByRole('button', { name: 'Close', exact: true }).click();
    await selection.waitFor({ state: 'hidden' });
    // Closed without a pick, the intake panel offers the selection again.
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Intake', exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Select Tenant' }).waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await panel.waitFor({ state: 'detached' });
  });

  test('filters with chips: a chip needs a value, finished units show only when a State chip asks for them', async () => {
    const operator = await sessionOf(browser, 'operator');
    const change = await createChangeRequest(operator, {
      title: uniqueName('E2E canceled change'),
      approver1: ADMIN_MAIL,
    });
    await updateWorkUnit(operator, change.workUnitId, { stateId: WORK_UNIT_STATES.Canceled });
    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await page.getByRole('button', { name: 'Add Filter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Filter' });
    await choose(dialog, page, 'Field', 'State');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('Please make a selection').waitFor();
    const values = dialog.getByRole('combobox', { name: 'Values' });
    await values.click();
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option', { name: 'Canceled' }).click();
    // Escape closes the menu, not the dialog, and leaves the choice in the field.
    await page.keyboard.press('Escape');
    await listbox.waitFor({ state: 'hidden' });
    expect(await values.textContent()).toBe('Canceled');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The bar shows the applied chip: its longer label moves the Type chip along, so a click aimed
    // before that lands on the Type chip's label (its Edit Filter dialog) instead of its delete icon.
    await chip(page, 'State: New, Canceled').waitFor();
    // Straight on, without waiting for the list: the removal starts from the applied chip.
    await chip(page, 'Type: Incident').locator('.MuiChip-deleteIcon').click();
    await expect.poll(() => chip(page, 'Type: Incident').count()).toBe(0);
    expect(listState(page).filters).toEqual([expect.objectContaining({ field: 'stateId', value: [1, 8] })]);
    // The canceled change request is listed.
    await searchGrid(page, change.title);
    await gridRow(page, change.title).waitFor();
    await screenshot(page, 'work-units-filter-chips');

    // Without a State chip, Resolved, Closed and Canceled are hidden.
    await chip(page, 'State: New, Canceled').locator('.MuiChip-deleteIcon').click();
    await page.getByText('Resolved, Closed and Canceled work units are hidden.').waitFor();
    await expect.poll(() => gridRow(page, change.title).count()).toBe(0);
  });

  test('removing two filter chips in quick succession removes both', async () => {
    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await chip(page, 'State: New').waitFor();
    await chip(page, 'Type: Incident').waitFor();
    const asked: (string | null)[] = [];
    page.on('request', (request) => {
      if (isListRequest(request)) asked.push(new URL(request.url()).searchParams.get('$filter'));
    });
    // Both clicks land before the page has drawn the first removal, as with a quick user on a
    // busy machine: the second removal must start from the list the first one left.
    await page.getByRole('toolbar', { name: 'Filters' }).evaluate((bar) => {
      for (const icon of bar.querySelectorAll('.MuiChip-deleteIcon'))
        icon.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    });
    await expect
      .poll(() => page.getByRole('toolbar', { name: 'Filters' }).locator('.MuiChip-root').allTextContents())
      .toEqual([]);
    expect(listState(page).filters).toEqual([]);
    await page.getByText('Resolved, Closed and Canceled work units are hidden.').waitFor();
    // The list is asked for with neither chip: only the finished states stay hidden, in the user's tenant.
    const tenantId = (await sessionOf(browser, 'operator')).me.tenantId ?? '';
    await expect.poll(() => asked.at(-1)).toBe(`tenantId eq ${tenantId} and not (stateId in (6,7,8))`);
  });

  test('without the live stream, auto refresh asks for the list again every 60 s, and not while switched off', async () => {
    const page = await signedInPage(browser, 'operator', { clock: true });
    // The live stream unavailable (a proxy that refuses it): the list polls as before.
    await page.route('**/v1/live?*', (route) => route.abort());
    await openList(page);
    const refreshes: string[] = [];
    page.on('request', (request) => {
      if (isListRequest(request)) refreshes.push(request.url());
    });
    await pauseClock(page);
    // Switching it off and on again starts the 60 s from here.
    await page.getByLabel('Auto Refresh').uncheck();
    await page.getByLabel('Auto Refresh').check();
    await page.clock.runFor(WORK_UNITS_POLL_MS - 1);
    expect(refreshes).toEqual([]);
    const refreshed = awaitLater(page.waitForRequest(isListRequest));
    await page.clock.runFor(1);
    await refreshed;

    await page.getByLabel('Auto Refresh').uncheck();
    refreshes.length = 0;
    await page.clock.runFor(3 * WORK_UNITS_POLL_MS);
    expect(refreshes).toEqual([]);
  });

  test('the Auto Refresh choice is kept over a reload', async () => {
    const page = await signedInPage(browser, 'operator', { ownContext: true });
    await openList(page);
    const autoRefresh = page.getByLabel('Auto Refresh');
    expect(await autoRefresh.isChecked()).toBe(true);
    await autoRefresh.uncheck();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
    expect(await page.getByLabel('Auto Refresh').isChecked()).toBe(false);
    await page.getByLabel('Auto Refresh').check();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
    expect(await page.getByLabel('Auto Refresh').isChecked()).toBe(true);
  });

  test('Export Page writes the visible columns in the grid order under their titles, enums by name, dates in ISO 8601; Export All every column', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'), {
      title: uniqueName('E2E exported'),
      severityId: 1,
    });
    // Wide enough that the grid leaves no column out for want of room: the page is what is shown.
    const page = await signedInPage(browser, 'operator', { width: 2400 });
    const hidden = [
      'assignedTo',
      'stakeHolderFullName',
      'stakeHolderPhoneNumber',
      'stakeHolderEmailAddress',
      'modified',
      'workUnitType',
      'assignmentGroup',
    ];
    const state = { search: unit.title, columns: Object.fromEntries(hidden.map((field) => [field, false])) };
    await openList(page, `?search=${encodeURIComponent(JSON.stringify(state))}`);
    await gridRow(page, unit.title).waitFor();
    const download = async (button: string) => {
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: button }).click(),
      ]);
      expect(file.suggestedFilename()).toBe('workunits.csv');
      return (await fs.readFile(await file.path(), 'utf8')).split(/\r?\n/).filter(Boolean);
    };

    const [header, line, ...more] = await download('Export Page');
    // Contoso's custom fields are columns of its grid too, shown by default.
    expect(header).toBe('ID,Tenant,Title,Severity,State,Created,Response,Resolution,Business Unit,Asset Tag');
    expect(more).toEqual([]);
    const cells = line?.split(',') ?? [];
    expect(cells.slice(0, 5)).toEqual([String(unit.workUnitId), 'Contoso', unit.title, 'Sev1', 'New']);
    expect(cells[5]).toBe(new Date(unit.created).toISOString());

    // Export All asks for every row (spec 001 §2), not the first 1000: no $top.
    const allRequest = awaitLater(page.waitForRequest((request) => request.url().includes('/workunits/Export')));
    const [allHeader = '', ...allLines] = await download('Export All');
    expect(new URL((await allRequest).url()).searchParams.has('$top')).toBe(false);
    expect(allHeader.split(',')).toEqual([...FIRST_COLUMNS, ...LATER_COLUMNS]);
    expect(allLines).toHaveLength(1);
    expect(allLines[0]).toContain(`,${unit.title},Sev1,New,`);
    expect(allLines[0]).toContain(',Incident,');
  });

  test('a failed export says so instead of ending silently', async () => {
    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await page.route('**/v1/workunits/Export**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'boom' }) }),
    );
    await page.getByRole('button', { name: 'Export All' }).click();
    await page.getByText(SHELL_MESSAGES.exportFailed).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Export All' }).isEnabled()).toBe(true);
    await screenshotAtWidths(page, 'work-units-export-failed');
  });

  test('a long export shows how much has arrived while it runs, then downloads the whole file', async () => {
    // A slow export: the header and 300 kB of rows at once, the rest when the test lets it go.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      response.write(`ID,Title\n${'1,Printer\n'.repeat(30_720)}`.slice(0, 300 * 1024));
      void released.then(() => response.end('2,Scanner\n'));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const page = await signedInPage(browser, 'operator');
      await openList(page);
      const { port } = slow.address() as AddressInfo;
      await page.route('**/v1/workunits/Export**', (route) => route.continue({ url: `http://127.0.0.1:${port}/` }));
      const download = awaitLater(page.waitForEvent('download'));
      await page.getByRole('button', { name: 'Export All' }).click();
      const running = page.getByRole('button', { name: /^Exporting\.\.\./ });
      await expect.poll(() => running.textContent()).toBe('Exporting... 300 kB');
      expect(await running.isDisabled()).toBe(true);
      await screenshotAtWidths(page, 'work-units-export-progress');
      release();
      const file = await download;
      const text = await fs.readFile(await file.path(), 'utf8');
      expect([text.length, text.slice(0, 9), text.slice(-10)]).toEqual([300 * 1024 + 10, 'ID,Title\n', '2,Scanner\n']);
      await page.getByRole('button', { name: 'Export All' }).waitFor();
    } finally {
      release();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  test('the old experience lists the same work units, newest first, 50 a page, and links back', async () => {
    const operator = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(operator, { title: uniqueName('E2E newest') });
    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await page.getByRole('link', { name: 'Return to the old experience' }).click();
    await page.waitForURL(`**/${unit.tenantId}/workunits/index`);
    const table = page.getByRole('table', { name: 'Work units' });
    for (const header of ['ID', 'Title', 'Severity', 'State', 'Tenant', 'Assigned To', 'Created'])
      await table.getByRole('columnheader', { name: header }).waitFor();
    // The unit made just now is the newest; 50 rows a page.
    await table.getByRole('row').nth(1).getByText(unit.title).waitFor();
    const total =
      (await api<ListResponse<WorkUnitRow>>(operator, '/v1/workunits?$count=true&$top=1'))['@odata.count'] ?? 0;
    expect(await table.getByRole('row').count()).toBe(Math.min(total, 50) + 1);
    await page.getByText(`Page 1 of ${Math.max(1, Math.ceil(total / 50))} · ${total} work units`).waitFor();
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(total <= 50);
    await screenshot(page, 'work-units-classic');
    await page.getByRole('link', { name: 'Go to the new experience' }).click();
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
  });
});

import fs from 'node:fs/promises';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { choose, drawer, gridRow, launchBrowser, newContext, screenshot, serverCall, signIn } from './support';

/**
 * Work units in the browser (spec 001 §2 "Work units list", "Work unit panel", §4, §5, §8; issue 4):
 * an incident created, acknowledged from the list, edited, noted; a concurrent edit from a second
 * browser refused with the spec's message; a change request approved by approver 1 (operator)
 * and declined by approver 2 (admin); an incident migrated to a change request; the filter
 * chips; the CSV export; the old experience. operator works in one browser context, admin in
 * another; the tests share them, in order.
 */

const SUFFIX = Date.now().toString(36);
const INCIDENT = `E2E printer on fire ${SUFFIX}`;
const CHANGE = `E2E firmware rollout ${SUFFIX}`;
const OPERATOR_MAIL = 'operator@cfs.example';
const ADMIN_MAIL = 'admin@cfs.example';
const CONFLICT = 'This Work Unit was modified by another user. Please discard your changes without saving and refresh it.';

interface WorkUnit {
  workUnitId: number;
  title: string;
  description: string | null;
  severityId: number;
  stateId: number;
  workUnitTypeId: number;
  assignedTo: string | null;
  approved1By: string | null;
  declined2By: string | null;
  decision2Notes: string | null;
}
interface CurrentUser {
  tenantId: string | null;
}

const workUnit = (page: Page, id: number) => serverCall<WorkUnit>(page, `/v1/workunits(${id})`);

/** Searches the directory in a people field and picks the person. */
async function pickPerson(scope: Locator, page: Page, label: string, search: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label }).fill(search);
  await page.getByRole('option', { name: option }).click();
}

/** Types a date and time into an MUI date-time field, section by section (MM DD YYYY hh mm AM/PM). */
async function typeDateTime(scope: Locator, page: Page, label: string, digits: string): Promise<void> {
  await scope.getByRole('group', { name: label }).getByRole('spinbutton', { name: 'Month' }).click();
  await page.keyboard.type(digits);
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Search' }).fill(text);
  await page.getByRole('textbox', { name: 'Search' }).press('Enter');
}

/** Clicks Save and waits for the PATCH (or PUT) it sends; answers its status. */
async function save(page: Page, panel: Locator, method: 'PATCH' | 'PUT' = 'PATCH'): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => candidate.request().method() === method && candidate.url().includes('/workunits')),
    panel.getByRole('button', { name: 'Save', exact: true }).click(),
  ]);
  return response.status();
}

function idFromUrl(page: Page): number {
  return Number(new URL(page.url()).searchParams.get('workUnitId'));
}

describe('work units (operator, and admin in a second browser)', () => {
  let browser: Browser;
  let operatorContext: BrowserContext;
  let adminContext: BrowserContext;
  let page: Page;
  let adminPage: Page;
  let tenantId: string;
  let incidentId: number;
  let changeId: number;

  beforeAll(async () => {
    browser = await launchBrowser();
    operatorContext = await newContext(browser);
    adminContext = await newContext(browser);
    page = await operatorContext.newPage();
    adminPage = await adminContext.newPage();
    await signIn(page, 'operator');
    await signIn(adminPage, 'admin');
    const user = await serverCall<CurrentUser>(page, '/v1/currentUser');
    if (!user.tenantId) throw new Error('operator has no tenant');
    tenantId = user.tenantId;
  });

  afterAll(async () => {
    await operatorContext?.close();
    await adminContext?.close();
    await browser?.close();
  });

  test('lists New incidents by default with the spec columns, severity colours and the (ack) link', async () => {
    await page.goto('/workunitsv2');
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
    expect(await page.title()).toMatch(/^Work Units - /);
    for (const header of ['ID', 'Tenant', 'Title', 'Severity', 'State', 'Assigned To', 'Stakeholder Name']) await page.getByRole('columnheader', { name: header }).waitFor();
    // The grid renders the columns in view: scroll to the others and back.
    const scroller = page.locator('.MuiDataGrid-virtualScroller');
    await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    for (const header of ['Stakeholder Phone', 'Stakeholder Email', 'Last Updated', 'Created', 'Work Unit Type', 'Assignment Group']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await scroller.evaluate((element) => element.scrollTo({ left: 0 }));
    await page.getByRole('button', { name: 'State: New' }).waitFor();
    await page.getByRole('button', { name: 'Type: Incident' }).waitFor();
    await page.getByRole('button', { name: '(ack)' }).first().waitFor();
    expect(await page.getByLabel('Auto Refresh').isChecked()).toBe(true);
    // Severity cells are coloured by level, except Sev4; the default order is severity ascending.
    const severities = page.locator('[role="row"] [data-field="severityId"][role="gridcell"]');
    const cells = await severities.evaluateAll((nodes) => nodes.map((node) => ({ text: node.textContent, background: getComputedStyle(node).backgroundColor })));
    expect(cells.length).toBeGreaterThan(1);
    // The order check means something only over rows of more than one severity.
    expect(new Set(cells.map((cell) => cell.text)).size).toBeGreaterThan(1);
    expect(cells.map((cell) => cell.text)).toEqual([...cells.map((cell) => cell.text)].sort());
    for (const cell of cells) expect(cell.background === 'rgba(0, 0, 0, 0)').toBe(cell.text === 'Sev4');
    await screenshot(page, 'work-units-list');
  });

  test('creates an incident from the Create menu: Sev0, New, the route tenant, "Please enter the title" first', async () => {
    await page.getByRole('button', { name: 'Create' }).click();
    for (const type of ['Change Request', 'Incident', 'Intake']) await page.getByRole('menuitem', { name: type }).waitFor();
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
    await panel.getByText('Please enter the title').waitFor();

    await panel.getByRole('textbox', { name: 'Title' }).fill(INCIDENT);
    await panel.getByRole('textbox', { name: 'Description' }).fill('The printer on floor 3 smells of smoke.');
    expect(await save(page, panel, 'PUT')).toBeLessThan(300);
    await panel.getByRole('heading', { name: new RegExp(`^Edit Work Unit #\\d+: ${INCIDENT}$`) }).waitFor();
    incidentId = idFromUrl(page);
    expect(incidentId).toBeGreaterThan(0);
    await panel.getByRole('tab', { name: 'Work Unit' }).waitFor();
    await panel.getByRole('tab', { name: 'Properties' }).waitFor();
    await panel.getByRole('tab', { name: 'Related' }).waitFor();
    await expect.poll(() => page.title()).toMatch(new RegExp(`^WU #${incidentId} - `));
    await screenshot(page, 'work-units-panel-incident');

    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => page.title()).toMatch(/^Work Units - /);
  });

  test('acknowledges the incident from the list: Acknowledged, assigned to the current user, "Work unit #{id} acknowledged."', async () => {
    await search(page, INCIDENT);
    const row = gridRow(page, INCIDENT);
    await row.getByRole('button', { name: '(ack)' }).click();
    await page.getByText(`Work unit #${incidentId} acknowledged.`).waitFor();
    const unit = await workUnit(page, incidentId);
    expect(unit.stateId).toBe(2);
    expect(unit.assignedTo).toBe(OPERATOR_MAIL);
  });

  test('edits the incident: every state is offered past New, the assignment group prompt, a saved JSON Patch', async () => {
    await page.goto(`/workunitsv2?workUnitId=${incidentId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit Work Unit #${incidentId}: ${INCIDENT}` }).waitFor();
    await panel.getByRole('combobox', { name: 'State' }).click();
    expect(await page.getByRole('listbox').getByRole('option').count()).toBe(8);
    await page.getByRole('listbox').getByRole('option', { name: 'In Progress', exact: true }).click();

    // Someone is assigned and the state is not New: clearing the assignee and setting New is offered (spec 001 §4).
    await choose(panel, page, 'Assignment Group', 'Network');
    const prompt = page.getByRole('dialog', { name: 'Assignment Group' });
    await prompt.getByText('Do you want to clear the assignee and set the state to New?').waitFor();
    await prompt.getByRole('button', { name: 'No' }).click();

    await choose(panel, page, 'Severity', 'Sev2');
    await panel.getByRole('textbox', { name: 'Description' }).fill('The printer on floor 3 is on fire. Facilities informed.');
    expect(await save(page, panel)).toBe(200);
    await expect.poll(() => panel.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    const unit = await workUnit(page, incidentId);
    expect(unit).toMatchObject({ severityId: 2, stateId: 3, assignedTo: OPERATOR_MAIL, description: 'The printer on floor 3 is on fire. Facilities informed.' });
  });

  test('adds an internal and an external note; the external notes view shows the external one only', async () => {
    const panel = drawer(page);
    const notes = panel.getByRole('region', { name: 'Notes' });
    await notes.getByRole('textbox', { name: 'New note' }).fill('Internal: extinguisher used, printer unplugged.');
    await notes.getByRole('button', { name: 'Add Note' }).click();
    await page.getByText('Note added successfully!').first().waitFor();
    await notes.getByText('Internal: extinguisher used, printer unplugged.').waitFor();

    await notes.getByRole('textbox', { name: 'New note' }).fill('External: a replacement printer arrives tomorrow.');
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
  });

  test('refuses a concurrent edit from a second browser with the spec message; discard and refresh shows the winner', async () => {
    const panel = drawer(page);
    await adminPage.goto(`/workunitsv2?workUnitId=${incidentId}`);
    const adminPanel = drawer(adminPage);
    await adminPanel.getByRole('heading', { name: `Edit Work Unit #${incidentId}: ${INCIDENT}` }).waitFor();

    await panel.getByRole('textbox', { name: 'Title' }).fill(`${INCIDENT} (operator)`);
    expect(await save(page, panel)).toBe(200);

    await adminPanel.getByRole('textbox', { name: 'Title' }).fill(`${INCIDENT} (admin)`);
    expect(await save(adminPage, adminPanel)).toBe(409);
    await adminPanel.getByText(CONFLICT).waitFor();
    await screenshot(adminPage, 'work-units-conflict');

    await adminPanel.getByRole('button', { name: 'Discard and refresh' }).click();
    await expect.poll(() => adminPanel.getByRole('textbox', { name: 'Title' }).inputValue()).toBe(`${INCIDENT} (operator)`);
    expect((await workUnit(page, incidentId)).title).toBe(`${INCIDENT} (operator)`);
  });

  test('creates a change request; approver 1 (operator) approves', async () => {
    await page.goto('/workunitsv2');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('menuitem', { name: 'Change Request' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Work Unit' }).waitFor();
    await panel.getByRole('textbox', { name: 'Title' }).fill(CHANGE);
    // The change request fields are required (spec 001 §5).
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Please enter the implementation plan.').waitFor();
    await panel.getByText('Please choose approver 1.').waitFor();

    await panel.getByRole('textbox', { name: 'Resolution' }).fill('Firmware 2.4 on all floor printers.');
    await panel.getByRole('textbox', { name: 'Implementation Plan' }).fill('Push firmware through the print server, one floor at a time.');
    await panel.getByRole('textbox', { name: 'Rollback Plan' }).fill('Reflash firmware 2.3 from the print server.');
    await panel.getByRole('textbox', { name: 'Affected Resources' }).fill('Printers on floors 1-5');
    await panel.getByRole('textbox', { name: 'Environment' }).fill('Production');
    await panel.getByRole('textbox', { name: 'Expected CFS Alerts' }).fill('Printer offline alerts during the window');
    await typeDateTime(panel, page, 'Planned Finish Time', '030520271000AM');
    await typeDateTime(panel, page, 'Planned Start Time', '030520271100AM');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Planned Finish Time must be equal to or greater than Planned Start Time.').waitFor();
    await typeDateTime(panel, page, 'Planned Finish Time', '030520270100PM');
    await pickPerson(panel, page, 'Approver 1', 'oscar', `Oscar Operator (${OPERATOR_MAIL})`);
    await pickPerson(panel, page, 'Approver 2', 'ada', `Ada Admin (${ADMIN_MAIL})`);
    expect(await save(page, panel, 'PUT')).toBeLessThan(300);
    await panel.getByRole('heading', { name: new RegExp(`^Edit Work Unit #\\d+: ${CHANGE}$`) }).waitFor();
    changeId = idFromUrl(page);

    const approver1 = panel.getByTestId('approver-1');
    const approver2 = panel.getByTestId('approver-2');
    await approver1.getByText('Pending approval').waitFor();
    await approver2.getByRole('img', { name: 'Pending' }).waitFor();
    // Only the signed-in approver gets the controls.
    expect(await approver2.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await approver1.scrollIntoViewIfNeeded();
    await screenshot(page, 'work-units-panel-change-request');

    await approver1.getByRole('button', { name: 'Approve' }).click();
    await approver1.getByText(`Approved by ${OPERATOR_MAIL}`).waitFor();
    expect((await workUnit(page, changeId)).approved1By).toBe(OPERATOR_MAIL);
  });

  test('approver 2 (admin) declines with notes: the change request is Canceled and shows the notes', async () => {
    await adminPage.goto(`/workunitsv2?workUnitId=${changeId}`);
    const panel = drawer(adminPage);
    await panel.getByRole('heading', { name: `Edit Work Unit #${changeId}: ${CHANGE}` }).waitFor();
    const approver2 = panel.getByTestId('approver-2');
    await panel.getByTestId('approver-1').getByText(`Approved by ${OPERATOR_MAIL}`).waitFor();
    await approver2.getByRole('button', { name: 'Decline' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Decline Change Request' });
    expect(await dialog.getByRole('button', { name: 'Decline' }).isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Notes' }).fill('Not during the quarter-end freeze.');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await approver2.getByText(`Declined by ${ADMIN_MAIL}`).waitFor();
    await approver2.getByText('Notes: Not during the quarter-end freeze.').waitFor();
    await expect.poll(() => panel.getByRole('combobox', { name: 'State' }).textContent()).toBe('Canceled');
    const unit = await workUnit(adminPage, changeId);
    expect(unit).toMatchObject({ stateId: 8, declined2By: ADMIN_MAIL, decision2Notes: 'Not during the quarter-end freeze.', approved1By: OPERATOR_MAIL });
    await approver2.scrollIntoViewIfNeeded();
    await screenshot(adminPage, 'work-units-change-request-declined');
  });

  test('migrates the incident to a change request from the footer menu; a second time warns', async () => {
    await page.goto(`/workunitsv2?workUnitId=${incidentId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit Work Unit #${incidentId}: ${INCIDENT} (operator)` }).waitFor();
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
    await typeDateTime(change, page, 'Planned Start Time', '040120270900AM');
    await typeDateTime(change, page, 'Planned Finish Time', '040120271000AM');
    await pickPerson(change, page, 'Approver 1', 'operator', `Oscar Operator (${OPERATOR_MAIL})`);
    expect(await save(page, panel)).toBe(200);
    expect((await workUnit(page, incidentId)).workUnitTypeId).toBe(2);

    await panel.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Change type to Change Request' }).click();
    await page.getByText('This work unit already is a Change Request.').waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
  });

  test('relates a work unit from the Related tab (the search is sent once, 500 ms after typing) and removes it again', async () => {
    await page.goto(`/workunitsv2?workUnitId=${incidentId}&tab=related`);
    const panel = drawer(page);
    await panel.getByText('No related Work Units found.').waitFor();
    const searches: number[] = [];
    const onRequest = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/workunits') && (url.searchParams.get('$filter') ?? '').includes('contains(tolower(title)')) searches.push(Date.now());
    };
    page.on('request', onRequest);
    const typedAt = Date.now();
    await panel.getByRole('combobox', { name: 'Relate a work unit' }).fill(String(changeId));
    const option = page.getByRole('option', { name: `#${changeId} ${CHANGE}` });
    await option.waitFor();
    page.off('request', onRequest);
    expect(searches).toHaveLength(1);
    // Timer granularity aside, nothing is sent before the 500 ms have passed.
    expect((searches[0] ?? 0) - typedAt).toBeGreaterThanOrEqual(490);
    await option.click();
    const table = panel.getByRole('table', { name: 'Related Work Units' });
    await table.getByRole('button', { name: CHANGE }).waitFor();
    await table.getByText('Canceled').waitFor();
    expect(await panel.getByRole('tab', { name: /Related/ }).textContent()).toContain('1');
    await screenshot(page, 'work-units-related');
    await table.getByRole('button', { name: `Remove relation ${changeId}` }).click();
    await panel.getByText('No related Work Units found.').waitFor();
    await panel.getByRole('tab', { name: 'Properties' }).click();
    await panel.getByText('No properties found.').waitFor();
  });

  test('opens a unit from its publicWorkUnitId; with a protocolId it opens none and lists that protocol', async () => {
    const { publicWorkUnitId } = await serverCall<{ publicWorkUnitId: string }>(page, `/v1/workunits(${incidentId})`);
    await page.goto(`/workunitsv2?publicWorkUnitId=${publicWorkUnitId}`);
    await page.waitForURL((url) => url.searchParams.get('workUnitId') === String(incidentId) && !url.searchParams.has('publicWorkUnitId'));
    await drawer(page).getByRole('heading', { name: `Edit Work Unit #${incidentId}: ${INCIDENT} (operator)` }).waitFor();

    // The list asks for that protocol's units only.
    const protocolList = page.waitForResponse((response) => {
      const url = new URL(response.request().url());
      return url.pathname.endsWith('/workunits') && (url.searchParams.get('$filter') ?? '').includes('protocolId eq 5');
    });
    await page.goto(`/workunitsv2?workUnitId=${incidentId}&protocolId=5`);
    expect((await protocolList).ok()).toBe(true);
    await page.getByRole('button', { name: 'Protocol #5' }).waitFor();
    await page.waitForURL((url) => !url.searchParams.has('workUnitId'));
    // The grid has answered (a row or its empty overlay) before the drawers are counted.
    await page.locator('.MuiDataGrid-row, .MuiDataGrid-overlay').first().waitFor();
    expect(await drawer(page).count()).toBe(0);
  });

  test('Create > Intake opens the intake panel', async () => {
    await page.goto('/workunitsv2');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('menuitem', { name: 'Intake' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Intake' }).waitFor();
    await panel.getByText('This area is not available yet.').waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
  });

  test('filters with chips: a chip needs a value, finished units show only when a State chip asks for them', async () => {
    await page.goto('/workunitsv2');
    await page.getByRole('button', { name: 'Add Filter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Filter' });
    await choose(dialog, page, 'Field', 'State');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText('Please make a selection').waitFor();
    await dialog.getByRole('combobox', { name: 'Values' }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'Canceled' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('button', { name: 'State: New, Canceled' }).waitFor();
    // Remove the type chip: the canceled change request is listed.
    await page.getByRole('button', { name: 'Type: Incident' }).locator('.MuiChip-deleteIcon').click();
    await search(page, CHANGE);
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await gridRow(page, CHANGE).waitFor();
    const listState = JSON.parse(new URL(page.url()).searchParams.get('search') ?? '{}') as { filters?: { field: string; value: unknown }[] };
    expect(listState.filters).toEqual([expect.objectContaining({ field: 'stateId', value: [1, 8] })]);
    await screenshot(page, 'work-units-filter-chips');

    // Without a State chip, Resolved, Closed and Canceled are hidden.
    await page.getByRole('button', { name: 'State: New, Canceled' }).locator('.MuiChip-deleteIcon').click();
    await page.getByText('Resolved, Closed and Canceled work units are hidden.').waitFor();
    await expect.poll(() => gridRow(page, CHANGE).count()).toBe(0);
  });

  test('exports all rows as workunits.csv with a header line', async () => {
    await page.getByRole('button', { name: 'Reset Filters' }).click();
    await search(page, '');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export All' }).click()]);
    expect(download.suggestedFilename()).toBe('workunits.csv');
    const text = await fs.readFile(await download.path(), 'utf8');
    const header = text.split(/\r?\n/)[0] ?? '';
    for (const column of ['workUnitId', 'title', 'severityId', 'stateId', 'tenant/name']) expect(header.split(',')).toContain(column);
    expect(text.split(/\r?\n/).filter(Boolean).length).toBeGreaterThan(1);
  });

  test('the old experience lists the same work units, newest first, 50 a page, and links back', async () => {
    await page.getByRole('link', { name: 'Return to the old experience' }).click();
    await page.waitForURL(`**/${tenantId}/workunits/index`);
    const table = page.getByRole('table', { name: 'Work units' });
    for (const header of ['ID', 'Title', 'Severity', 'State', 'Tenant', 'Assigned To', 'Created']) await table.getByRole('columnheader', { name: header }).waitFor();
    // The change request created above is the newest unit; 50 rows a page.
    await table.getByRole('row').nth(1).getByText(CHANGE).waitFor();
    const total = (await serverCall<{ '@odata.count': number }>(page, '/v1/workunits?$count=true&$top=1'))['@odata.count'];
    expect(await table.getByRole('row').count()).toBe(Math.min(total, 50) + 1);
    await page.getByText(`Page 1 of ${Math.max(1, Math.ceil(total / 50))} · ${total} work units`).waitFor();
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(total <= 50);
    await screenshot(page, 'work-units-classic');
    await page.getByRole('link', { name: 'Go to the new experience' }).click();
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
  });
});

import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { WORK_UNIT_MESSAGES, WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import {
  api,
  awaitLater,
  browser,
  checkRow,
  choose,
  createWorkUnit,
  gridRow,
  screenshot,
  searchGrid,
  serverCall,
  sessionOf,
  signedInPage,
  uniqueName,
  updateWorkUnit,
  type WorkUnitRow,
} from './support';

/**
 * Bulk actions and saved views on the work units grid (issue 8, item 23): rows checked across
 * the grid, a bulk state change that reports the units the state rules refuse, export of the
 * selection, a view saved and applied with one click, and the built-ins "Assigned to me" and "My groups".
 */

const OPERATOR_MAIL = 'operator@cfs.example';
/** Every state but the finished ones, so New and Acknowledged units show side by side. */
const ALL_OPEN = `?search=${encodeURIComponent(JSON.stringify({ filters: [] }))}`;

async function openList(page: Page, query = ''): Promise<void> {
  await page.goto(`/workunitsv2${query}`);
  await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
  await page.locator('.MuiDataGrid-row, .MuiDataGrid-overlay').first().waitFor();
}

const check = (page: Page, title: string) => checkRow(gridRow(page, title));
const workUnit = (page: Page, id: number) => serverCall<WorkUnitRow>(page, `/v1/workunits(${id})`);
const viewChip = (page: Page, name: string) =>
  page.getByRole('toolbar', { name: 'Saved views' }).getByRole('button', { name });

describe('bulk actions and saved views on the work units grid', () => {
  test('changes the state of the checked units and reports the one the state rules refuse, which stays checked', async () => {
    const operator = await sessionOf(browser, 'operator');
    const tag = uniqueName('E2E bulk state');
    const acknowledged = await createWorkUnit(operator, { title: `${tag} acknowledged` });
    await updateWorkUnit(operator, acknowledged.workUnitId, { stateId: WORK_UNIT_STATES.Acknowledged });
    const fresh = await createWorkUnit(operator, { title: `${tag} new` });

    const page = await signedInPage(browser, 'operator');
    await openList(page, ALL_OPEN);
    await searchGrid(page, tag);
    await check(page, `${tag} acknowledged`);
    await check(page, `${tag} new`);
    const bar = page.getByRole('toolbar', { name: 'Selected rows' });
    await bar.getByText('2 selected').waitFor();

    await bar.getByRole('button', { name: 'Change State' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change State' });
    await choose(dialog, page, 'State', 'In Progress');
    await screenshot(page, 'work-units-bulk-state-dialog');
    await dialog.getByRole('button', { name: 'Apply' }).click();

    // A New unit may move only to New, Acknowledged or Canceled (spec 001 §4): refused, the other changed.
    const report = page.getByRole('dialog', { name: 'Change State' }).filter({ hasText: 'refused' });
    await report.getByText('1 work unit changed.').waitFor();
    const refused = report.getByRole('list', { name: 'Refused' }).getByRole('listitem');
    expect(await refused.allTextContents()).toEqual([
      `Work unit #${fresh.workUnitId}${WORK_UNIT_MESSAGES.stateNotAllowed}`,
    ]);
    await screenshot(page, 'work-units-bulk-state-refused');
    await report.getByRole('button', { name: 'OK' }).click();

    await bar.getByText('1 selected').waitFor();
    expect(await gridRow(page, `${tag} new`).getByRole('checkbox').isChecked()).toBe(true);
    await expect
      .poll(async () => (await workUnit(page, acknowledged.workUnitId)).stateId)
      .toBe(WORK_UNIT_STATES.InProgress);
    expect((await workUnit(page, fresh.workUnitId)).stateId).toBe(WORK_UNIT_STATES.New);
    await gridRow(page, `${tag} acknowledged`).getByText('In Progress').waitFor();
  });

  test('assigns the checked units and exports exactly the selection', async () => {
    const operator = await sessionOf(browser, 'operator');
    const tag = uniqueName('E2E bulk assign');
    const first = await createWorkUnit(operator, { title: `${tag} one` });
    const second = await createWorkUnit(operator, { title: `${tag} two` });
    await createWorkUnit(operator, { title: `${tag} left alone` });

    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await searchGrid(page, tag);
    await check(page, `${tag} one`);
    await check(page, `${tag} two`);
    const bar = page.getByRole('toolbar', { name: 'Selected rows' });

    const exported = awaitLater(
      page.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/v1/workunits/Export')),
    );
    await bar.getByRole('button', { name: 'Export Selection' }).click();
    const filter = new URL((await exported).url()).searchParams.get('$filter') ?? '';
    expect(filter).toMatch(
      new RegExp(
        `^workUnitId in \\((${first.workUnitId},${second.workUnitId}|${second.workUnitId},${first.workUnitId})\\)$`,
      ),
    );

    await bar.getByRole('button', { name: 'Assign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign' });
    await dialog.getByRole('combobox', { name: 'Assigned To' }).fill('Oscar');
    await page.getByRole('option', { name: `Oscar Operator (${OPERATOR_MAIL})` }).click();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('2 work units changed.').waitFor();
    await expect.poll(async () => (await workUnit(page, first.workUnitId)).assignedTo).toBe(OPERATOR_MAIL);
    expect((await workUnit(page, second.workUnitId)).assignedTo).toBe(OPERATOR_MAIL);
    // Everything changed: the selection is cleared.
    await bar.waitFor({ state: 'detached' });
  });

  test('saves the filters, sort, columns and search as a view and applies it again with one click', async () => {
    const name = uniqueName('E2E Sev0 view');
    const page = await signedInPage(browser, 'operator');
    const state = {
      filters: [{ id: 'severityId', field: 'severityId', operator: 'isAnyOf', value: [0] }],
      sort: [{ field: 'created', direction: 'desc' }],
      columns: { stakeHolderPhoneNumber: false },
      search: 'printer',
    };
    await openList(page, `?search=${encodeURIComponent(JSON.stringify(state))}`);
    await page.getByRole('toolbar', { name: 'Filters' }).getByRole('button', { name: 'Severity: Sev0' }).waitFor();

    await page.getByRole('button', { name: 'Save View' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save View' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`View "${name}" saved.`).waitFor();
    expect(await viewChip(page, name).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'work-units-saved-view');

    // Back to the default list, then one click on the view.
    await openList(page);
    expect(await viewChip(page, name).getAttribute('aria-pressed')).toBe('false');
    await viewChip(page, name).click();
    await page.getByRole('toolbar', { name: 'Filters' }).getByRole('button', { name: 'Severity: Sev0' }).waitFor();
    const shown = JSON.parse(new URL(page.url()).searchParams.get('search') ?? '{}') as typeof state;
    expect({ filters: shown.filters, sort: shown.sort, columns: shown.columns, search: shown.search }).toEqual(state);
    expect(await page.getByRole('textbox', { name: 'Search' }).inputValue()).toBe('printer');
    expect(await viewChip(page, name).getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByRole('columnheader', { name: 'Stakeholder Phone' }).count()).toBe(0);
  });

  test('the grid shows each unit’s clocks; the Service Level chip keeps the units breaching within the hour, in a saved view too', async () => {
    const operator = await sessionOf(browser, 'operator');
    const tag = uniqueName('E2E clocks grid');
    // The installation's levels: a Sev0 is answered within 15 minutes, a Sev4 within a day.
    const urgent = await createWorkUnit(operator, { title: `${tag} sev0`, severityId: 0 });
    const calm = await createWorkUnit(operator, { title: `${tag} sev4`, severityId: 4 });
    // Wide enough that the clock columns, after the spec's, are in view.
    const page = await signedInPage(browser, 'operator', { width: 3400 });
    // The worker starts the clocks from the units' events.
    await expect
      .poll(
        async () =>
          (
            await api<{ value: unknown[] }>(
              operator,
              `/v1/workunits?$filter=workUnitId in (${urgent.workUnitId},${calm.workUnitId}) and resolutionClock/due ne null`,
            )
          ).value.length,
        { timeout: 15_000 },
      )
      .toBe(2);
    await openList(page);
    await searchGrid(page, tag);
    const urgentRow = gridRow(page, `${tag} sev0`);
    await urgentRow.getByText(/^Due in 1[0-5] min$/).waitFor();
    await urgentRow.getByText(/^Due in [34] h$/).waitFor();
    await gridRow(page, `${tag} sev4`)
      .getByText(/^Due in (23 h|1 d)$/)
      .waitFor();

    await page.getByRole('button', { name: 'Add Filter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Filter' });
    await choose(dialog, page, 'Field', 'Service Level');
    await dialog.getByRole('combobox', { name: 'Values' }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'Breaching Within 1 h' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    const chip = page
      .getByRole('toolbar', { name: 'Filters' })
      .getByRole('button', { name: 'Service Level: Breaching Within 1 h' });
    await chip.waitFor();
    await gridRow(page, `${tag} sev4`).waitFor({ state: 'detached' });
    await urgentRow.waitFor();
    await screenshot(page, 'work-units-service-level-filter');

    const name = uniqueName('E2E breaching view');
    await page.getByRole('button', { name: 'Save View' }).click();
    const save = page.getByRole('dialog', { name: 'Save View' });
    await save.getByRole('textbox', { name: 'Name' }).fill(name);
    await save.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`View "${name}" saved.`).waitFor();
    await openList(page);
    await viewChip(page, name).click();
    await chip.waitFor();
    await urgentRow.waitFor();
    expect(await gridRow(page, `${tag} sev4`).count()).toBe(0);

    // Sorted by the Resolution column: the Sev0 (4 hours) before the Sev4 (a week).
    await openList(page);
    await searchGrid(page, tag);
    await page.getByRole('columnheader', { name: 'Resolution' }).click();
    await expect
      .poll(async () => (await page.locator('.MuiDataGrid-row').allTextContents()).map((text) => text.includes('sev0')))
      .toEqual([true, false]);
  });

  test('"Assigned to me" lists only the units assigned to the signed-in user', async () => {
    const operator = await sessionOf(browser, 'operator');
    const tag = uniqueName('E2E mine');
    await createWorkUnit(operator, { title: `${tag} mine`, assignedTo: OPERATOR_MAIL, stateId: WORK_UNIT_STATES.New });
    await createWorkUnit(operator, { title: `${tag} someone else`, assignedTo: 'admin@cfs.example' });

    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await viewChip(page, 'Assigned to me').click();
    await page
      .getByRole('toolbar', { name: 'Filters' })
      .getByRole('button', { name: `Assigned To: ${OPERATOR_MAIL}` })
      .waitFor();
    await searchGrid(page, tag);
    expect(await page.locator('.MuiDataGrid-row').allTextContents()).toEqual([expect.stringContaining(`${tag} mine`)]);
    expect(await viewChip(page, 'Assigned to me').getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'work-units-assigned-to-me');
  });

  test('"My groups" lists only the units whose assignment group is one of the signed-in user\'s', async () => {
    const operator = await sessionOf(browser, 'operator');
    const tag = uniqueName('E2E my groups');
    // The demo seed puts the operator in Contoso's "Service Desk" group only.
    await createWorkUnit(operator, { title: `${tag} service desk`, assignmentGroup: 'Service Desk' });
    await createWorkUnit(operator, { title: `${tag} network`, assignmentGroup: 'Network' });

    const page = await signedInPage(browser, 'operator');
    await openList(page);
    await viewChip(page, 'My groups').click();
    await page
      .getByRole('toolbar', { name: 'Filters' })
      .getByRole('button', { name: 'Assignment Group: Service Desk' })
      .waitFor();
    await searchGrid(page, tag);
    expect(await page.locator('.MuiDataGrid-row').allTextContents()).toEqual([
      expect.stringContaining(`${tag} service desk`),
    ]);
    expect(await viewChip(page, 'My groups').getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'work-units-my-groups');
  });
});

import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import {
  browser,
  createTenant,
  createWorkUnit,
  drawer,
  gridRow,
  openPages,
  pauseClock,
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
 * What operators expect of any list and drawer (issue 8, item 22): titles are links (a plain click
 * opens the drawer, Ctrl or middle click a new tab), a click anywhere on a row opens it, Back undoes
 * a filter, sort or search change, dates show how long ago they were, Ctrl+S saves the open drawer
 * and Ctrl+Enter adds a note. Each test makes its own data through the API.
 */

const workUnitHeading = (unit: WorkUnitRow) => `Edit Work Unit #${unit.workUnitId}: ${unit.title}`;

/** The work units list searched for one unit, its row shown. */
async function workUnitsWith(page: Page, unit: WorkUnitRow): Promise<void> {
  await page.goto('/workunitsv2');
  await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
  await searchGrid(page, unit.title);
  await gridRow(page, unit.title).waitFor();
}

/** The list state the address holds (`?search=`). */
function listState(page: Page): { search?: string; sort?: unknown[]; filters?: { field: string }[] } {
  return JSON.parse(new URL(page.url()).searchParams.get('search') ?? '{}') as {
    search?: string;
    sort?: unknown[];
    filters?: { field: string }[];
  };
}

describe('operators’ habits in lists and drawers', () => {
  test('a title is a link to the open unit: a plain click opens the drawer in place, Ctrl+click and a middle click open it in a new tab', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'), { title: uniqueName('E2E linked') });
    const page = await signedInPage(browser, 'operator');
    await workUnitsWith(page, unit);
    const link = gridRow(page, unit.title).getByRole('link', { name: unit.title });
    const href = new URL((await link.getAttribute('href')) ?? '', page.url());
    expect(href.pathname).toBe('/workunitsv2');
    expect(href.searchParams.get('workUnitId')).toBe(String(unit.workUnitId));

    for (const click of [() => link.click({ modifiers: ['ControlOrMeta'] }), () => link.click({ button: 'middle' })]) {
      const [tab] = await Promise.all([page.context().waitForEvent('page'), click()]);
      await drawer(tab)
        .getByRole('heading', { name: workUnitHeading(unit) })
        .waitFor();
      await tab.close();
      // The list stays as it was: no drawer opened here.
      expect(new URL(page.url()).searchParams.get('workUnitId')).toBeNull();
      expect(await drawer(page).count()).toBe(0);
    }

    await link.click();
    await drawer(page)
      .getByRole('heading', { name: workUnitHeading(unit) })
      .waitFor();
    expect(new URL(page.url()).searchParams.get('workUnitId')).toBe(String(unit.workUnitId));
    expect(openPages(page)).toEqual([page]);
  });

  test('a click anywhere on a row opens it: a work unit from its ID cell, a tenant from its email cell', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'), { title: uniqueName('E2E row click') });
    const page = await signedInPage(browser, 'operator');
    await workUnitsWith(page, unit);
    await gridRow(page, unit.title).locator('[data-field="workUnitId"]').click();
    await drawer(page)
      .getByRole('heading', { name: workUnitHeading(unit) })
      .waitFor();

    const tenant = await createTenant(await sessionOf(browser, 'admin'), {
      internalNotificationEmailAddress: 'row-click@cfs.example',
    });
    const admin = await signedInPage(browser, 'admin');
    await admin.goto(`/${tenant.tenantId}/tenants`);
    await searchGrid(admin, tenant.name);
    await gridRow(admin, tenant.name).locator('[data-field="internalNotificationEmailAddress"]').click();
    await expect.poll(() => drawer(admin).getByRole('textbox', { name: 'Name' }).inputValue()).toBe(tenant.name);
    expect(new URL(admin.url()).searchParams.get('editTenantId')).toBe(tenant.tenantId);
  });

  test('Back undoes a filter change, then a sort, then a search, one step each', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'), { title: uniqueName('E2E back') });
    const page = await signedInPage(browser, 'operator');
    await workUnitsWith(page, unit);
    const chip = (label: string) => page.getByRole('toolbar', { name: 'Filters' }).getByRole('button', { name: label });

    await page.getByRole('columnheader', { name: 'Title' }).click();
    await expect.poll(() => listState(page).sort).toEqual([{ field: 'title', direction: 'asc' }]);
    await chip('Type: Incident').locator('.MuiChip-deleteIcon').click();
    await expect.poll(() => chip('Type: Incident').count()).toBe(0);

    await page.goBack();
    await chip('Type: Incident').waitFor();
    expect(listState(page).sort).toEqual([{ field: 'title', direction: 'asc' }]);
    await page.goBack();
    await expect
      .poll(() => listState(page).sort)
      .toEqual([
        { field: 'severityId', direction: 'asc' },
        { field: 'created', direction: 'desc' },
      ]);
    expect(listState(page).search).toBe(unit.title);
    await gridRow(page, unit.title).waitFor();
    await page.goBack();
    await expect.poll(() => listState(page).search).toBeUndefined();
    await expect.poll(() => page.getByRole('textbox', { name: 'Search' }).inputValue()).toBe('');
  });

  test('a search that leaves a list empty says so; its button clears the search and filters, and Back brings them again', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'), { title: uniqueName('E2E nothing') });
    const page = await signedInPage(browser, 'operator');
    await page.goto('/workunitsv2');
    const chip = (label: string) => page.getByRole('toolbar', { name: 'Filters' }).getByRole('button', { name: label });
    await chip('Type: Incident').waitFor();
    const search = page.getByRole('textbox', { name: 'Search' });
    await search.fill(`${unit.title} elsewhere`);
    await search.press('Enter');
    const grid = page.locator('.MuiDataGrid-root');
    await grid.getByText('Nothing matches the search and filters.').waitFor();
    await screenshot(page, 'list-nothing-matches');

    await grid.getByRole('button', { name: 'Clear Search and Filters' }).click();
    await expect.poll(() => listState(page).filters).toEqual([]);
    expect(listState(page).search).toBe('');
    await expect.poll(() => search.inputValue()).toBe('');
    expect(await chip('Type: Incident').count()).toBe(0);
    await page.locator('.MuiDataGrid-row').first().waitFor();
    expect(await grid.getByText('Nothing matches the search and filters.').count()).toBe(0);

    await page.goBack();
    await grid.getByText('Nothing matches the search and filters.').waitFor();
    await expect.poll(() => search.inputValue()).toBe(`${unit.title} elsewhere`);
    await chip('Type: Incident').waitFor();
  });

  test('a date in a list shows how long ago it was beside it, and the text follows the time', async () => {
    const tenant = await createTenant(await sessionOf(browser, 'admin'));
    const page = await signedInPage(browser, 'admin', { clock: true });
    await page.goto(`/${tenant.tenantId}/tenants`);
    await searchGrid(page, tenant.name);
    const modified = gridRow(page, tenant.name).locator('[data-field="modified"]');
    await expect.poll(() => modified.textContent()).toMatch(/ just now$/);
    await pauseClock(page);
    await page.clock.runFor(3 * 60_000);
    await expect.poll(() => modified.textContent()).toMatch(/^\d+\/\w{3}\/\d{4} \d{2}:\d{2} \S+ 3 min ago$/);
    await screenshot(page, 'relative-times');
  });

  test('the old experience’s list and the tenant’s change history show how long ago too', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'), { title: uniqueName('E2E classic age') });
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/${unit.tenantId}/workunits/index`);
    const row = page.getByRole('table', { name: 'Work units' }).getByRole('row').filter({ hasText: unit.title });
    await expect.poll(() => row.textContent()).toMatch(/\d{2}:\d{2} \S+ just now$/);

    const tenant = await createTenant(await sessionOf(browser, 'admin'));
    const admin = await signedInPage(browser, 'admin');
    await admin.goto(`/${tenant.tenantId}/tenants?editTenantId=${tenant.tenantId}`);
    await drawer(admin).getByRole('button', { name: 'History' }).click();
    const entry = admin.getByRole('dialog', { name: 'Change history' }).getByRole('listitem').first();
    await expect.poll(() => entry.textContent()).toMatch(/ just now · admin · create/);
  });

  test('Ctrl+S saves the open drawer as Save does, and the browser’s own save is held back', async () => {
    const tenant = await createTenant(await sessionOf(browser, 'admin'));
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${tenant.tenantId}/tenants?editTenantId=${tenant.tenantId}`);
    const panel = drawer(page);
    const email = panel.getByRole('textbox', { name: 'Internal Notification Email' });
    await expect.poll(() => panel.getByRole('textbox', { name: 'Name' }).inputValue()).toBe(tenant.name);
    await page.evaluate(() => {
      window.addEventListener('keydown', (event) => {
        if (event.key === 's') document.body.dataset.saveKeyPrevented = String(event.defaultPrevented);
      });
    });
    await email.fill('ctrl-s@cfs.example');
    const [response] = await Promise.all([
      page.waitForResponse(
        (candidate) =>
          candidate.request().method() === 'POST' && candidate.url().includes(`/v1/tenants/${tenant.tenantId}`),
      ),
      page.keyboard.press('ControlOrMeta+s'),
    ]);
    expect(response.status()).toBe(200);
    expect(await page.evaluate(() => document.body.dataset.saveKeyPrevented)).toBe('true');
    await expect.poll(() => panel.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect(
      await serverCall<{ internalNotificationEmailAddress: string }>(page, `/v1/tenants/${tenant.tenantId}`),
    ).toMatchObject({ internalNotificationEmailAddress: 'ctrl-s@cfs.example' });
    await screenshot(page, 'ctrl-s-saved');
  });

  test('Ctrl+Enter in the notes box adds the note; a plain Enter is a new line', async () => {
    const operator = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(operator);
    await updateWorkUnit(operator, unit.workUnitId, { stateId: WORK_UNIT_STATES.Acknowledged });
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const notes = drawer(page).getByRole('region', { name: 'Notes' });
    const box = notes.getByRole('textbox', { name: 'New note' });
    await box.fill('Printer unplugged.');
    await box.press('Enter');
    await box.pressSequentially('Waiting for facilities.');
    expect(await box.inputValue()).toBe('Printer unplugged.\nWaiting for facilities.');
    const [response] = await Promise.all([
      page.waitForResponse(
        (candidate) => candidate.request().method() === 'PUT' && candidate.url().includes('/workunitnotes'),
      ),
      box.press('ControlOrMeta+Enter'),
    ]);
    expect(response.status()).toBeLessThan(300);
    const records = notes.getByRole('list', { name: 'History records' });
    await records.getByText('Printer unplugged.', { exact: false }).waitFor();
    // Dates in the notes list show how long ago they were.
    await records.getByText('just now').first().waitFor();
    await expect.poll(() => box.inputValue()).toBe('');
  });
});

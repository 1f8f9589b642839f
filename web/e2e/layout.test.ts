import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { TEXT_MAX } from '@cfs/contracts/values/work-units';
import {
  browser,
  createSubscription,
  createTenant,
  createToken,
  createWorkUnit,
  drawer,
  enrolAgent,
  gridRow,
  homeTenantId,
  insertLinePackage,
  portalDatabase,
  screenshot,
  searchGrid,
  sessionOf,
  sidewaysOverflow,
  truncatedHeaders,
  signedInPage,
  uniqueName,
} from './support';

/**
 * What operators saw on a laptop's screen (1440 px and 1400 px wide) and in dark mode: grids that
 * scrolled sideways or cut their headers and cells, a Save bar of another colour than its panel,
 * a note box that grew without end. Each test measures what the user sees.
 */

/** Whether the element lies wholly inside the grid's visible area, sideways. */
async function whollyInGrid(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const grid = await page.locator('.MuiDataGrid-virtualScroller').first().boundingBox();
  if (!box || !grid) return false;
  return box.x >= grid.x && box.x + box.width <= grid.x + grid.width;
}

describe('layout on a laptop screen and in dark mode', () => {
  test('at 1440 px the work units grid fits without scrolling sideways; the columns left out are offered in the column panel', async () => {
    const operator = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(operator, { title: uniqueName('E2E laptop') });
    const page = await signedInPage(browser, 'operator', { width: 1440 });
    await page.goto('/workunitsv2');
    await searchGrid(page, unit.title);
    await screenshot(page, 'layout-work-units-1440');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    expect(await truncatedHeaders(page)).toEqual([]);
    const headers = (await page.getByRole('columnheader').allTextContents()).map((header) => header.trim());
    expect(headers).toEqual(expect.arrayContaining(['ID', 'Title', 'Severity', 'State', 'Assigned To']));
    // A column left out for want of room is one click away, and then stays.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Created' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: 'Created', exact: true }).waitFor();
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'layout-work-units-375');
  });

  // At 1280 px a grid whose columns cannot all fit hides the last ones that are not essential (its
  // Columns button shows them again) rather than scrolling sideways or cutting its headers; on a
  // 375 px phone even essential columns give way, the name or title and the row actions never.
  test.each([1400, 1280, 375])(
    'at %i px every grid page of the menu fits without scrolling sideways, with its headers whole',
    async (width) => {
      const admin = await sessionOf(browser, 'admin');
      const page = await signedInPage(browser, 'admin', { width });
      // The menu's pages that show a grid (the others show tiles, checklists or reports).
      const gridPages = [
        'workunitsv2',
        'workunitcommunications',
        'devices',
        'software',
        'rules',
        'tenants',
        'locations',
        'packages',
        'protocols',
        'actioncatalog',
        'pendingdevices',
        'tokens',
        'workunitsettings',
        'versionreport',
        'outbox',
      ];
      const misfits: Record<string, { overflow: number[]; truncated: string[] }> = {};
      for (const path of gridPages) {
        await page.goto(`/${homeTenantId(admin)}/${path}`);
        await page.locator('.MuiDataGrid-columnHeaderTitle').first().waitFor();
        // The columns are fitted once the grid's width is known: the first drawing may still scroll.
        const overflow = () =>
          page
            .locator('.MuiDataGrid-virtualScroller')
            .evaluateAll((grids) => grids.map((grid) => grid.scrollWidth - grid.clientWidth));
        await expect
          .poll(async () => Math.max(...(await overflow())), { timeout: 3_000 })
          .toBeLessThanOrEqual(0)
          .catch(() => undefined);
        const found = {
          overflow: (await overflow()).filter((pixels) => pixels > 0),
          truncated: await truncatedHeaders(page),
        };
        if (found.overflow.length > 0 || found.truncated.length > 0) {
          misfits[path] = found;
          await screenshot(page, `layout-misfit-${path}-${width}`);
        }
      }
      await screenshot(page, `layout-outbox-${width}`);
      expect(misfits).toEqual({});
    },
  );

  test("at 1440 px Pending Devices shows each row's Last Ping with its age whole", async () => {
    const operator = await sessionOf(browser, 'operator');
    const machineName = uniqueName('e2e-laptop').replace(' ', '-');
    const { generatedToken } = await createToken(operator);
    await enrolAgent(generatedToken, machineName);
    const page = await signedInPage(browser, 'operator', { width: 1440 });
    await page.goto(`/${homeTenantId(operator)}/pendingdevices`);
    await searchGrid(page, machineName);
    await screenshot(page, 'layout-pending-devices-1440');
    const lastPing = gridRow(page, machineName).locator('[data-field="lastPing"]');
    await lastPing.getByText('just now').waitFor();
    expect(await whollyInGrid(page, lastPing.getByText('just now'))).toBe(true);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    expect(await truncatedHeaders(page)).toEqual([]);
  });

  test("at 1440 px the Version report fits without scrolling sideways and shows its Latest columns' cells whole", async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin, { name: uniqueName('E2E Laptop Versions') });
    const subscription = await createSubscription(admin, tenant.tenantId, 'Line 1');
    const deviceName = uniqueName('e2e-laptop-host').replace(' ', '-');
    const db = await portalDatabase();
    try {
      const { version, installedOn } = await insertLinePackage(db, tenant.tenantId);
      const installed = await version('1.0.0', 2);
      await version('1.1.0', 1);
      await installedOn(deviceName, subscription.subscriptionId, installed);
    } finally {
      await db.end();
    }
    const page = await signedInPage(browser, 'admin', { width: 1440 });
    await page.goto(`/${tenant.tenantId}/versionreport`);
    const row = gridRow(page, deviceName);
    await row.locator('[data-field="latestVersion"]').getByText('1.1.0').waitFor();
    await screenshot(page, 'layout-version-report-1440');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    expect(await truncatedHeaders(page)).toEqual([]);
    for (const field of ['latestVersion', 'latestVersionReleased']) {
      const cell = row.locator(`[data-field="${field}"]`);
      expect(await whollyInGrid(page, cell)).toBe(true);
      // The cell and what it holds show their text whole.
      const cut = await cell.evaluate((element) =>
        [element, ...element.querySelectorAll('*')].some((part) => part.scrollWidth > part.clientWidth),
      );
      expect(cut).toBe(false);
    }
    await row
      .locator('[data-field="latestVersionReleased"]')
      .getByText(/ago|just now/)
      .waitFor();
  });

  test("a long panel's Save and Save & Close stay in sight at its foot, before any scrolling", async () => {
    const admin = await sessionOf(browser, 'admin');
    const page = await signedInPage(browser, 'admin', { width: 1400 });
    await page.goto(`/${homeTenantId(admin)}/workunitcommunications`);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Communication' }).waitFor();
    const saveAndClose = panel.getByRole('button', { name: 'Save & Close' });
    await saveAndClose.waitFor();
    await screenshot(page, 'layout-communication-save-row');
    const viewport = page.viewportSize();
    const box = await saveAndClose.boundingBox();
    expect(box && viewport && box.y + box.height <= viewport.height).toBe(true);
    // The form runs on below the fold: the row is kept there, not the form short.
    const lastField = panel.getByRole('textbox', { name: 'Internal Bridge' });
    const field = await lastField.boundingBox();
    expect(field && viewport && field.y > viewport.height).toBe(true);
  });

  test("in dark mode the work unit panel's Save bar is the panel's colour", async () => {
    const operator = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(operator);
    // The portal starts light whatever the system prefers; the header's switch turns it dark.
    const page = await signedInPage(browser, 'operator', { width: 1440, colorScheme: 'dark', ownContext: true });
    await page.goto('/workunitsv2');
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    const saveAndClose = panel.getByRole('button', { name: 'Save & Close' });
    await saveAndClose.waitFor();
    await screenshot(page, 'layout-work-unit-panel-dark');
    const colours = await saveAndClose.evaluate((button) => {
      let bar: Element | null = button;
      while (bar && getComputedStyle(bar).position !== 'sticky') bar = bar.parentElement;
      const paper = button.closest('.MuiDrawer-paper');
      const paint = (element: Element | null) =>
        element ? `${getComputedStyle(element).backgroundColor} ${getComputedStyle(element).backgroundImage}` : 'none';
      return {
        bar: paint(bar),
        panel: paint(paper),
        dark: paper ? getComputedStyle(paper).backgroundImage !== 'none' : false,
      };
    });
    // Dark mode lightens the raised panel with an overlay: the bar has it too.
    expect(colours.dark).toBe(true);
    expect(colours.bar).toBe(colours.panel);
  });

  test('a 4,000-character note keeps its box at most 12 rows high, scrolling inside', async () => {
    const operator = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(operator);
    const page = await signedInPage(browser, 'operator', { width: 1440 });
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const box = drawer(page).getByRole('region', { name: 'Notes' }).getByRole('textbox', { name: 'New note' });
    await box.waitFor();
    const emptyHeight = (await box.boundingBox())?.height ?? 0;
    const text = Array.from(
      { length: 80 },
      (_, line) => `Line ${line + 1} of the shift report: the printer was checked again.`,
    )
      .join('\n')
      .slice(0, TEXT_MAX);
    expect(text.length).toBe(TEXT_MAX);
    await box.fill(text);
    await expect.poll(() => box.inputValue()).toHaveLength(TEXT_MAX);
    await box.scrollIntoViewIfNeeded();
    await screenshot(page, 'layout-long-note');
    const sizes = await box.evaluate((element) => ({
      lineHeight: parseFloat(getComputedStyle(element).lineHeight),
      height: element.clientHeight,
      scrollHeight: element.scrollHeight,
    }));
    expect(sizes.height).toBeGreaterThan(emptyHeight);
    expect(sizes.height).toBeLessThanOrEqual(12 * sizes.lineHeight + 1);
    expect(sizes.scrollHeight).toBeGreaterThan(sizes.height);
  });
});

import fs from 'node:fs/promises';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  browser,
  createSubscription,
  createTenant,
  gridRow,
  insertLinePackage,
  portalDatabase,
  screenshot,
  searchGrid,
  sessionOf,
  signedInPage,
  tenantNamed,
  uniqueName,
} from './support';

/**
 * The version report in the browser (spec 002 §2 Version report, §9): the summary strip, the grid
 * 25 a page, Export Page as versionreport.csv, and the tenant-name link that opens that tenant's
 * report. The test's fleet is a tenant of its own: two devices, one package (1.0.0, the Latest
 * 1.1.0 and a 1.2.0-beta.1 pre-release), written straight into the tables as the agents' reports
 * would leave them.
 */
describe('version report (admin)', () => {
  let tenant: { tenantId: string; name: string };
  let upToDate: string;
  let behind: string;

  beforeAll(async () => {
    const admin = await sessionOf(browser, 'admin');
    tenant = await createTenant(admin, { name: uniqueName('E2E Versions') });
    const subscription = await createSubscription(admin, tenant.tenantId, 'Line 1');
    upToDate = uniqueName('e2e-host-a');
    behind = uniqueName('e2e-host-b');
    const db = await portalDatabase();
    try {
      const { version, installedOn } = await insertLinePackage(db, tenant.tenantId);
      const old = await version('1.0.0', 2);
      const latest = await version('1.1.0', 1);
      await version('1.2.0-beta.1', 3);
      for (const [name, installed] of [
        [upToDate, latest],
        [behind, old],
      ] as const) {
        await installedOn(name, subscription.subscriptionId, installed);
      }
    } finally {
      await db.end();
    }
  });

  test("shows the tenant's summary and rows, 25 a page, and exports the page as versionreport.csv", async () => {
    // Wide enough for all nine columns: a narrower grid offers Installed Released in its column
    // panel, and the page's export holds the columns shown.
    const page = await signedInPage(browser, 'admin', { width: 1440 });
    await page.goto(`/${tenant.tenantId}/versionreport`);
    await page.getByRole('heading', { level: 1, name: 'Version Report' }).waitFor();
    await page.getByTestId('summary-percentage').filter({ hasText: '50.00%' }).waitFor();
    expect(await page.getByTestId('summary-devices').textContent()).toBe('2');
    expect(await page.getByTestId('summary-compliant').textContent()).toBe('1');
    expect(await page.getByTestId('summary-devices-outdated').textContent()).toBe('1');
    expect(await page.getByTestId('summary-packages-outdated').textContent()).toBe('1');
    for (const header of [
      'Device',
      'Tenant',
      'Subscription',
      'Package',
      'Version Status',
      'Installed Version',
      'Latest Version',
    ]) {
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    }
    const current = gridRow(page, upToDate);
    const outdated = gridRow(page, behind);
    await current.waitFor();
    expect(await current.textContent()).toContain('Current');
    expect(await outdated.textContent()).toMatch(/Outdated.*1\.0\.0.*1\.1\.0/);
    // Page sizes 25, 50, 100 (spec 002 §9), 25 first.
    await page.getByRole('combobox', { name: /Rows per page/ }).click();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['25', '50', '100']);
    await page.keyboard.press('Escape');
    await screenshot(page, 'version-report');

    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Page' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('versionreport.csv');
    const [header = '', ...lines] = (await fs.readFile(await file.path(), 'utf8')).split(/\r?\n/).filter(Boolean);
    expect(header).toBe(
      'Device,Tenant,Subscription,Package,Version Status,Installed Version,Installed Released,Latest Version,Latest Released',
    );
    expect(lines.map((line) => line.split(',').slice(0, 6).join(','))).toEqual(
      [
        `${upToDate},${tenant.name},Line 1,Line Agent,Current,1.1.0`,
        `${behind},${tenant.name},Line 1,Line Agent,Outdated,1.0.0`,
      ].sort(),
    );
  });

  test("filters by the report's own values, and a row's tenant name opens that tenant's report", async () => {
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${contoso.tenantId}/versionreport`);
    await page.getByRole('heading', { level: 1, name: 'Version Report' }).waitFor();
    await page.getByRole('combobox', { name: 'Tenant' }).click();
    await page.getByRole('option', { name: 'All tenants' }).click();
    await searchGrid(page, behind);
    await gridRow(page, behind).waitFor();
    // The Version Status filter offers the values the report holds.
    await page.getByRole('combobox', { name: 'Version Status' }).click();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual([
      'All',
      'Current',
      'Outdated',
    ]);
    await page.getByRole('option', { name: 'Outdated' }).click();
    await gridRow(page, behind).waitFor();
    await screenshot(page, 'version-report-all-tenants');
    await gridRow(page, behind).getByRole('link', { name: tenant.name }).click();
    await page.waitForURL((url) => url.pathname === `/${tenant.tenantId}/versionreport`);
    await page.getByTestId('summary-devices').filter({ hasText: '2' }).waitFor();
    await gridRow(page, upToDate).waitFor();
  });
});

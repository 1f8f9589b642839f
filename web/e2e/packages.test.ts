import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  browser,
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
 * The package catalogue in the browser (spec 002 §2 Packages): create a package, add an operation
 * with a parameter, upload two versions and see Latest and Archived, delete the archived one.
 */
/** The drawer opened last (the upload drawer sits over the package drawer). */
const topDrawer = (page: Page): Locator => drawer(page).last();

async function chooseOption(scope: Locator, page: Page, label: string, option: string): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}

/**
 * Uploads a small script as a version of Contoso's demo package through the Upload Package
 * Version form, and answers the form (which stays open when the upload is refused).
 */
async function uploadToDemoPackage(page: Page, tenantId: string, version: string, label: string): Promise<Locator> {
  await page.goto(`/${tenantId}/packages?uploadPackageId=new`);
  const upload = topDrawer(page);
  await upload.getByRole('heading', { name: 'Upload Package Version' }).waitFor();
  await chooseOption(upload, page, 'Package', 'Disk Space Check (Contoso)');
  await upload.getByRole('textbox', { name: 'Version' }).fill(version);
  await upload.getByRole('textbox', { name: 'Label' }).fill(label);
  const fileName = `${label.toLowerCase()}.sh`;
  await upload
    .locator('input[type="file"]')
    .setInputFiles({ name: fileName, mimeType: 'text/x-sh', buffer: Buffer.from(`echo ${label.toLowerCase()}\n`) });
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  return upload;
}

describe('package catalogue (operator)', () => {
  test('creates a package, adds an operation, uploads two versions (Latest and Archived) and deletes the archived one', async () => {
    const tenantId = homeTenantId(await sessionOf(browser, 'operator'));
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/${tenantId}/packages`);
    await page.getByRole('heading', { level: 1, name: 'Package Catalog' }).waitFor();
    for (const header of ['Name', 'Supported Operating Systems', 'Package Type', 'Executable Type', 'Tenant'])
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    // The shared packages: the agent's own checks, and the agent itself.
    await gridRow(page, 'CFS Agent').filter({ hasText: 'AgentLogic' }).waitFor();
    await gridRow(page, 'CFS Agent Runner').filter({ hasText: 'AgentRunner' }).waitFor();
    await page.getByRole('button', { name: 'Upload Package' }).waitFor();
    await screenshot(page, 'packages-grid');

    // Create Package: only the Edit Package form until the package exists.
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Package' }).waitFor();
    expect(await panel.getByRole('tab', { name: 'Operations' }).count()).toBe(0);
    const name = uniqueName('E2E Package');
    await panel.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await chooseOption(panel, page, 'Package Type', 'ScriptRunner');
    await chooseOption(panel, page, 'Executable Type', 'Script');
    await panel.getByRole('checkbox', { name: 'LinuxX64' }).check();
    await screenshot(page, 'packages-create');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByRole('heading', { name: `Edit Package: ${name}` }).waitFor();
    await page.waitForURL((url) => /^[0-9a-f-]{36}$/.test(url.searchParams.get('packageId') ?? ''));

    // Operations: add one with a parameter.
    await panel.getByRole('tab', { name: 'Operations' }).click();
    await panel.getByText('No operations yet.').waitFor();
    await panel.getByRole('button', { name: 'Add Operation' }).click();
    const operationForm = panel.getByRole('form', { name: 'Operation' });
    await operationForm.getByRole('textbox', { name: 'Name' }).first().fill('Queue Depth');
    await chooseOption(operationForm, page, 'Operation Type', 'Metric');
    await chooseOption(operationForm, page, 'Result Type', 'Numeric');
    await operationForm.getByRole('textbox', { name: 'Default Interval' }).fill('00:00:10');
    await operationForm.getByRole('checkbox', { name: 'Recurring' }).check();
    await operationForm.getByRole('button', { name: 'Add Parameter' }).click();
    await operationForm.getByRole('textbox', { name: 'Parameter Name' }).fill('Queue');
    await operationForm.getByRole('button', { name: 'Save', exact: true }).click();
    // The spec's minimum interval (§5, §9).
    await operationForm.getByText('Interval must be at least 00:00:30').waitFor();
    await operationForm.getByRole('textbox', { name: 'Default Interval' }).fill('00:02:00');
    await operationForm.getByRole('button', { name: 'Save', exact: true }).click();
    const operations = panel.getByRole('table', { name: 'Operations' });
    await operations.getByRole('row').filter({ hasText: 'Queue Depth' }).waitFor();
    expect(await operations.getByRole('row').filter({ hasText: 'Queue Depth' }).textContent()).toContain('00:02:00');
    await screenshot(page, 'packages-operations');
    await operationForm.getByRole('button', { name: 'Cancel' }).click();

    // Versions: upload two.
    await panel.getByRole('tab', { name: 'Versions' }).click();
    await panel.getByText('No versions uploaded yet.').waitFor();
    // A closed drawer stays in the page while it slides away.
    const onlyPackageDrawer = () => expect.poll(() => drawer(page).count(), { timeout: 10_000 }).toBe(1);
    const uploadVersion = async (version: string, label: string) => {
      await panel.getByRole('button', { name: 'Upload Version' }).click();
      const upload = topDrawer(page);
      await upload.getByRole('heading', { name: `Upload Package Version: ${name}` }).waitFor();
      await upload.getByRole('textbox', { name: 'Version' }).fill(version);
      await upload.getByRole('textbox', { name: 'Label' }).fill(label);
      await upload.locator('input[type="file"]').setInputFiles({
        name: `queue-${version}.sh`,
        mimeType: 'text/x-sh',
        buffer: Buffer.from(`#!/bin/sh\necho ${version}\n`),
      });
      if (version === '1.0.0') await screenshot(page, 'packages-upload');
      await upload.getByRole('button', { name: 'Upload', exact: true }).click();
      await page.waitForURL((url) => !url.searchParams.has('uploadPackageId'));
      await onlyPackageDrawer();
    };
    // Label and file are required (spec 002 §5).
    await panel.getByRole('button', { name: 'Upload Version' }).click();
    const first = topDrawer(page);
    await first.getByRole('textbox', { name: 'Version' }).fill('1.0.0');
    await first.getByRole('button', { name: 'Upload', exact: true }).click();
    await first.getByText('Label is required').waitFor();
    await first.getByText('File is required').waitFor();
    await first.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.waitForURL((url) => !url.searchParams.has('uploadPackageId'));
    await onlyPackageDrawer();

    await uploadVersion('1.0.0', 'First build');
    await uploadVersion('1.1.0', 'Second build');
    const versions = panel.getByRole('table', { name: 'Versions' });
    const row = (version: string) =>
      versions.getByRole('row').filter({ has: page.getByRole('cell', { name: version, exact: true }) });
    await expect.poll(async () => row('1.1.0').textContent(), { timeout: 10_000 }).toContain('Latest');
    await expect.poll(async () => row('1.0.0').textContent(), { timeout: 10_000 }).toContain('Archived');
    expect(await row('1.1.0').textContent()).toContain('Second build');
    // Delete is hidden for the Latest version (spec 002 §4).
    expect(await row('1.1.0').getByRole('button', { name: 'Delete version 1.1.0' }).count()).toBe(0);
    await screenshot(page, 'packages-versions');

    await row('1.0.0').getByRole('button', { name: 'Delete version 1.0.0' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Package version deleted successfully.').waitFor();
    await expect.poll(async () => row('1.0.0').count(), { timeout: 10_000 }).toBe(0);
    // Polled: the rows are hidden from the accessibility tree while the question fades away.
    await expect.poll(async () => row('1.1.0').count(), { timeout: 10_000 }).toBe(1);

    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('packageId'));
    await searchGrid(page, name);
    expect(await gridRow(page, name).textContent()).toContain('LinuxX64');
  });

  test('an upload the server refuses shows its reason', async () => {
    const tenantId = homeTenantId(await sessionOf(browser, 'operator'));
    const page = await signedInPage(browser, 'operator');
    // 0.9.0 is the demo package's own version: the server refuses a duplicate.
    const upload = await uploadToDemoPackage(page, tenantId, '0.9.0', 'Again');
    await upload.getByText('Version 0.9.0 already exists for this package.').waitFor();
    await screenshot(page, 'packages-upload-refused');
  });

  test('the upload form refuses "v1.3.0" as a SemVer 2 version before anything is uploaded', async () => {
    const tenantId = homeTenantId(await sessionOf(browser, 'operator'));
    const page = await signedInPage(browser, 'operator', { width: 1440 });
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/packages/upload') uploads.push(request.method());
    });
    const upload = await uploadToDemoPackage(page, tenantId, 'v1.3.0', 'Prefixed');
    await upload.getByText('Version must be a SemVer 2 version, e.g. 1.2.3 or 1.3.0-beta.1').waitFor();
    expect(uploads).toEqual([]);
    await screenshot(page, 'packages-upload-version-refused-1440');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'packages-upload-version-refused-375');
  });
});

import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  api,
  browser,
  choose,
  createSubscription,
  createTenant,
  createWorkUnit,
  drawer,
  gridRow,
  saveNewToken,
  screenshot,
  searchGrid,
  serverCall,
  sessionOf,
  signedInPage,
  tenantNamed,
  uniqueName,
  type ListResponse,
  type WorkUnitRow,
} from './support';

/**
 * The tenant in the path (issue 8): an address naming a tenant the user may not use goes to the
 * same page of the user's own tenant, with the access toast; lists of tenant-owned data show the
 * tenant in the path until the user chooses "All tenants"; the work unit grid shows the custom
 * fields of the tenant in the path as columns headed by their names.
 */

const FORBIDDEN = 'You do not have access to one or more requested resources';

/** Contoso's id as admin sees it: operator2 cannot look it up. */
const contosoId = async () => (await tenantNamed(browser, 'admin', 'Contoso')).tenantId;

/** Scrolls the grid to its last columns (the grid renders only the columns in view). */
async function scrollGridRight(page: Page): Promise<void> {
  await page
    .locator('.MuiDataGrid-virtualScroller')
    .first()
    .evaluate((scroller) => {
      scroller.scrollLeft = scroller.scrollWidth;
    });
}

describe('a link into a tenant the user may not use', () => {
  test("operator2 opening Contoso's Create Work Unit link is sent to Fabrikam's, told by the access toast; the form names Fabrikam and saves there", async () => {
    const contoso = await contosoId();
    const fabrikam = await tenantNamed(browser, 'operator2', 'Fabrikam');
    const page = await signedInPage(browser, 'operator2');
    await page.goto(`/${contoso}/workunitsv2?workUnitId=new&workUnitTypeId=1`);
    await page.waitForURL(
      (url) => url.pathname === `/${fabrikam.tenantId}/workunitsv2` && url.searchParams.get('workUnitId') === 'new',
    );
    await page.getByText(FORBIDDEN).waitFor();
    // Behind the open drawer, which hides the rest of the page from the accessibility tree.
    await page.getByRole('button', { name: /^Tenant and subscription: Fabrikam > /, includeHidden: true }).waitFor();

    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Work Unit' }).waitFor();
    expect(await panel.getByRole('combobox', { name: 'Tenant' }).textContent()).toBe('Fabrikam');
    await screenshot(page, 'tenant-context-foreign-link');
    const title = uniqueName('E2E Fabrikam incident');
    await panel.getByRole('textbox', { name: 'Title' }).fill(title);
    const [response] = await Promise.all([
      page.waitForResponse(
        (candidate) => candidate.request().method() === 'PUT' && candidate.url().includes('/workunits'),
      ),
      panel.getByRole('button', { name: 'Save', exact: true }).click(),
    ]);
    expect(response.status()).toBe(200);
    const saved = (await response.json()) as WorkUnitRow;
    expect(saved.tenantId).toBe(fabrikam.tenantId);
  });

  test("operator2 opening Contoso's token link creates the token in Fabrikam, not a 404", async () => {
    const contoso = await contosoId();
    const fabrikam = await tenantNamed(browser, 'operator2', 'Fabrikam');
    const name = uniqueName('e2e-foreign-link');
    const page = await signedInPage(browser, 'operator2');
    await page.goto(`/${contoso}/tokens?tokenGrantId=new`);
    await page.waitForURL(
      (url) => url.pathname === `/${fabrikam.tenantId}/tokens` && url.searchParams.get('tokenGrantId') === 'new',
    );
    await page.getByText(FORBIDDEN).waitFor();
    const panel = await saveNewToken(page, name);
    await panel.getByText('Copy this token now. It cannot be viewed again after you leave this page.').waitFor();
    const grants = await serverCall<ListResponse<{ name: string; tenantId: string }>>(
      page,
      `/v1/tokens?$filter=tenantId eq ${fabrikam.tenantId}`,
    );
    expect(grants.value.map((grant) => grant.name)).toContain(name);
  });

  test("admin, who may use every tenant, stays on Fabrikam's address", async () => {
    const fabrikam = await tenantNamed(browser, 'admin', 'Fabrikam');
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${fabrikam.tenantId}/workunitsv2`);
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
    await gridRow(page, 'Fabrikam').first().waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${fabrikam.tenantId}/workunitsv2`);
    expect(await page.getByText(FORBIDDEN).count()).toBe(0);
  });
});

describe('tenant fields', () => {
  test("the Create form names the user's own tenant even once it is disabled and has left the tenant lookup", async () => {
    const admin = await sessionOf(browser, 'admin');
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const tenant = await createTenant(admin);
    const subscription = await createSubscription(admin, tenant.tenantId);
    await api(admin, `/v1/tenantSubscriptionContext/${tenant.tenantId}`, {
      method: 'POST',
      body: { tenant: tenant.tenantId, subscriptionId: subscription.subscriptionId },
    });
    try {
      await api(admin, `/v1/tenants/${tenant.tenantId}/toggledisabled`, { method: 'POST' });
      const page = await signedInPage(browser, 'admin');
      await page.goto(`/${tenant.tenantId}/workunitsv2?workUnitId=new&workUnitTypeId=1`);
      const panel = drawer(page);
      await panel.getByRole('heading', { name: 'Create Work Unit' }).waitFor();
      await expect.poll(() => panel.getByRole('combobox', { name: 'Tenant' }).textContent()).toBe(tenant.name);
      expect(new URL(page.url()).pathname).toBe(`/${tenant.tenantId}/workunitsv2`);
    } finally {
      await api(admin, `/v1/tenantSubscriptionContext/${contoso.tenantId}`, {
        method: 'POST',
        body: { tenant: contoso.tenantId, subscriptionId: admin.me.subscriptionId },
      });
    }
  });
});

describe('lists of tenant-owned data', () => {
  test('the work units list shows the tenant in the path; "All tenants" lists every tenant, kept in the address, and the tenant again narrows it', async () => {
    const admin = await sessionOf(browser, 'admin');
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const fabrikam = await tenantNamed(browser, 'admin', 'Fabrikam');
    const tag = uniqueName('E2E scope');
    const inContoso = await createWorkUnit(admin, { title: `${tag} Contoso`, tenantId: contoso.tenantId });
    const inFabrikam = await createWorkUnit(admin, { title: `${tag} Fabrikam`, tenantId: fabrikam.tenantId });

    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${fabrikam.tenantId}/workunitsv2`);
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
    await searchGrid(page, tag);
    await gridRow(page, inFabrikam.title).waitFor();
    expect(await gridRow(page, inContoso.title).count()).toBe(0);
    const scope = page.getByRole('combobox', { name: 'Tenant' });
    expect(await scope.textContent()).toBe('Fabrikam');

    await scope.click();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['Fabrikam', 'All tenants']);
    await page.getByRole('option', { name: 'All tenants' }).click();
    await gridRow(page, inContoso.title).waitFor();
    await gridRow(page, inFabrikam.title).waitFor();
    expect(JSON.parse(new URL(page.url()).searchParams.get('search') ?? '{}')).toMatchObject({
      allTenants: true,
      search: tag,
    });
    await screenshot(page, 'tenant-context-all-tenants');

    // A reload keeps the choice; choosing the tenant again narrows the list back.
    await page.reload();
    await gridRow(page, inContoso.title).waitFor();
    await choose(page.locator('body'), page, 'Tenant', 'Fabrikam');
    await gridRow(page, inContoso.title).waitFor({ state: 'detached' });
    await gridRow(page, inFabrikam.title).waitFor();
  });

  test("after admin picks Fabrikam in the header, Contoso's work units leave the list", async () => {
    const admin = await sessionOf(browser, 'admin');
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const fabrikam = await tenantNamed(browser, 'admin', 'Fabrikam');
    const tag = uniqueName('E2E picked');
    const inContoso = await createWorkUnit(admin, { title: `${tag} Contoso`, tenantId: contoso.tenantId });
    const inFabrikam = await createWorkUnit(admin, { title: `${tag} Fabrikam`, tenantId: fabrikam.tenantId });
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${contoso.tenantId}/workunitsv2`);
    await searchGrid(page, tag);
    await gridRow(page, inContoso.title).waitFor();
    expect(await gridRow(page, inFabrikam.title).count()).toBe(0);

    await page.getByRole('button', { name: /^Tenant and subscription: / }).click();
    const dialog = page.getByRole('dialog', { name: 'Tenant > Subscription' });
    try {
      await choose(dialog, page, 'Tenant', 'Fabrikam');
      await choose(dialog, page, 'Subscription', 'Fabrikam Production');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL((url) => url.pathname === `/${fabrikam.tenantId}/workunitsv2`);
      await gridRow(page, inFabrikam.title).waitFor();
      expect(await gridRow(page, inContoso.title).count()).toBe(0);
    } finally {
      await api(admin, `/v1/tenantSubscriptionContext/${contoso.tenantId}`, {
        method: 'POST',
        body: { tenant: contoso.tenantId, subscriptionId: admin.me.subscriptionId },
      });
    }
  });

  test('Work Unit Settings lists the categories of the tenant in the path until "All tenants" is chosen', async () => {
    const fabrikam = await tenantNamed(browser, 'admin', 'Fabrikam');
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${fabrikam.tenantId}/workunitsettings`);
    const categories = page.locator('.MuiDataGrid-root').first();
    await gridRow(page, 'Plant systems').waitFor();
    expect(await categories.getByRole('row').filter({ hasText: 'Contoso' }).count()).toBe(0);
    await choose(page.locator('body'), page, 'Tenant', 'All tenants');
    await categories.getByRole('row').filter({ hasText: 'Contoso' }).first().waitFor();
    await screenshot(page, 'tenant-context-categories-all-tenants');
  });

  test('the old experience lists the work units of the tenant in the path', async () => {
    const admin = await sessionOf(browser, 'admin');
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const fabrikam = await tenantNamed(browser, 'admin', 'Fabrikam');
    const inFabrikam = await createWorkUnit(admin, {
      title: uniqueName('E2E classic Fabrikam'),
      tenantId: fabrikam.tenantId,
    });
    // The newest unit of all: were Contoso's listed, it would head the table.
    const inContoso = await createWorkUnit(admin, {
      title: uniqueName('E2E classic Contoso'),
      tenantId: contoso.tenantId,
    });
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${fabrikam.tenantId}/workunits/index`);
    const table = page.getByRole('table', { name: 'Work units' });
    await table.getByRole('row').nth(1).getByText(inFabrikam.title).waitFor();
    expect(await table.getByText(inContoso.title).count()).toBe(0);
    const tenantCells = await table.locator('tbody tr td:nth-child(5)').allTextContents();
    expect(new Set(tenantCells)).toEqual(new Set(['Fabrikam']));
  });

  test('a user of one tenant is not offered "All tenants"', async () => {
    const page = await signedInPage(browser, 'operator2');
    await page.goto('/workunitsv2');
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
    await page.getByRole('button', { name: 'Export Page' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Tenant' }).count()).toBe(0);
  });
});

describe('custom fields in the work unit grid', () => {
  test("the grid shows the custom fields of the tenant in the path as columns headed by their names, with the units' values", async () => {
    const admin = await sessionOf(browser, 'admin');
    const contoso = await tenantNamed(browser, 'admin', 'Contoso');
    const fabrikam = await tenantNamed(browser, 'admin', 'Fabrikam');
    const unit = await createWorkUnit(admin, {
      title: uniqueName('E2E custom'),
      tenantId: contoso.tenantId,
      customValue1: 'Wholesale',
      customValue3: 'CT-4711',
    });

    // A screen wide enough for every column (a narrower one leaves the last ones to the column panel).
    const page = await signedInPage(browser, 'admin', { width: 3400 });
    await page.goto(`/${contoso.tenantId}/workunitsv2`);
    await searchGrid(page, unit.title);
    await scrollGridRight(page);
    await page.getByRole('columnheader', { name: 'Business Unit' }).waitFor();
    await page.getByRole('columnheader', { name: 'Asset Tag' }).waitFor();
    const row = gridRow(page, 'CT-4711');
    await row.getByRole('gridcell', { name: 'Wholesale' }).waitFor();
    await screenshot(page, 'tenant-context-custom-columns');

    await page.goto(`/${fabrikam.tenantId}/workunitsv2`);
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
    await gridRow(page, 'Fabrikam').first().waitFor();
    await scrollGridRight(page);
    await page.getByRole('columnheader', { name: 'Plant' }).waitFor();
    await page.getByRole('columnheader', { name: 'Production Line' }).waitFor();
    expect(await page.getByRole('columnheader', { name: 'Business Unit' }).count()).toBe(0);
  });
});

import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import {
  browser,
  createSubscription,
  createTenant,
  createWorkUnit,
  drawer,
  gridRow,
  homeTenantId,
  searchGrid,
  serverCall,
  sessionOf,
  signedInPage,
  uniqueName,
  type WorkUnitRow,
} from './support';

/**
 * The drawers' unsaved-changes question (spec 000 §2: "There are unsaved changes. Are you sure
 * you want to close?", Yes / No): on Escape, on Save & Close while a note is still being written,
 * on opening a related work unit, on switching an inline form to another row, and on the
 * browser's Back; a clean drawer closes without it. admin works on work units, tenants and
 * subscriptions each test makes for itself.
 */

function question(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Unsaved changes' });
}

/** Waits for the question, checks its words and answers it. */
async function answer(page: Page, reply: 'Yes' | 'No'): Promise<void> {
  const dialog = question(page);
  await dialog.getByText(SHELL_MESSAGES.unsavedChanges).waitFor();
  await dialog.getByRole('button', { name: reply, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

describe('unsaved changes in drawers (admin)', () => {
  /** A page of admin's on the tenants page with the Create Tenant drawer opened by its button (a history entry of its own). */
  async function openCreateTenant(page: Page): Promise<Locator> {
    await page.goto(`/${homeTenantId(await sessionOf(browser, 'admin'))}/tenants`);
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('editTenantId') === 'new');
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Tenant' }).waitFor();
    return panel;
  }

  test('Escape on a tenant drawer with typed input asks; No keeps the drawer and the input, Yes closes it', async () => {
    const page = await signedInPage(browser, 'admin');
    const panel = await openCreateTenant(page);
    const name = panel.getByRole('textbox', { name: 'Name' });
    const typed = uniqueName('Unsaved');
    await name.fill(typed);
    await name.press('Escape');
    await answer(page, 'No');
    expect(await name.inputValue()).toBe(typed);
    expect(param(page, 'editTenantId')).toBe('new');

    await name.press('Escape');
    await answer(page, 'Yes');
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await panel.waitFor({ state: 'detached' });
  });

  test('Save & Close of a new tenant saves it and closes without asking: the saved form is clean', async () => {
    const saved = uniqueName('E2E saved and closed');
    const page = await signedInPage(browser, 'admin');
    const panel = await openCreateTenant(page);
    await panel.getByRole('textbox', { name: 'Name' }).fill(saved);
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await panel.waitFor({ state: 'detached' });
    expect(await question(page).count()).toBe(0);
    await searchGrid(page, saved);
    await gridRow(page, saved).waitFor();
  });

  test('a clean drawer closes on Escape and on Back without asking', async () => {
    const page = await signedInPage(browser, 'admin');
    let panel = await openCreateTenant(page);
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await panel.waitFor({ state: 'detached' });
    expect(await question(page).count()).toBe(0);

    panel = await openCreateTenant(page);
    await page.evaluate(() => history.back());
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await panel.waitFor({ state: 'detached' });
    expect(await question(page).count()).toBe(0);
  });

  test('the browser Back from a dirty drawer asks; No keeps the drawer and the input, Yes goes back', async () => {
    const page = await signedInPage(browser, 'admin');
    const panel = await openCreateTenant(page);
    const name = panel.getByRole('textbox', { name: 'Name' });
    const typed = uniqueName('Back');
    await name.fill(typed);
    await page.evaluate(() => history.back());
    await answer(page, 'No');
    // The router puts the drawer's entry back.
    await expect.poll(() => param(page, 'editTenantId')).toBe('new');
    expect(await name.inputValue()).toBe(typed);
    await panel.getByRole('heading', { name: 'Create Tenant' }).waitFor();

    await page.evaluate(() => history.back());
    await answer(page, 'Yes');
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await panel.waitFor({ state: 'detached' });
  });

  test('Save & Close of the work unit form asks while a note is still being written; No keeps the note, the form is saved', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'admin'));
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: new RegExp(`^Edit Work Unit #${unit.workUnitId}`) }).waitFor();
    const note = panel.getByRole('region', { name: 'Notes' }).getByRole('textbox', { name: 'New note' });
    await note.fill('A note not added yet');
    const description = 'Checked the cabling.';
    await panel.getByRole('textbox', { name: 'Description' }).fill(description);
    const [response] = await Promise.all([
      page.waitForResponse(
        (candidate) => candidate.request().method() === 'PATCH' && candidate.url().includes('/workunits'),
      ),
      panel.getByRole('button', { name: 'Save & Close' }).click(),
    ]);
    expect(response.status()).toBe(200);
    await answer(page, 'No');
    expect(param(page, 'workUnitId')).toBe(String(unit.workUnitId));
    expect(await note.inputValue()).toBe('A note not added yet');
    // The form itself was saved: pristine again, and the server holds the description.
    await expect.poll(() => panel.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect((await serverCall<WorkUnitRow>(page, `/v1/workunits(${unit.workUnitId})`)).description).toBe(description);

    // Without the note, Save & Close closes without a question.
    await note.fill('');
    await panel.getByRole('textbox', { name: 'Description' }).fill(`${description} Again.`);
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await page.waitForURL((url) => !url.searchParams.has('workUnitId'));
    expect(await question(page).count()).toBe(0);
  });

  test('opening a related work unit from the panel asks while there are unsaved changes', async () => {
    const admin = await sessionOf(browser, 'admin');
    const unit = await createWorkUnit(admin);
    const other = await createWorkUnit(admin, { title: uniqueName('E2E related') });
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}&tab=related`);
    const panel = drawer(page);
    await panel.getByRole('combobox', { name: 'Relate a work unit' }).fill(String(other.workUnitId));
    await page.getByRole('option', { name: `#${other.workUnitId} ${other.title}` }).click();
    const table = panel.getByRole('table', { name: 'Related Work Units' });
    await table.getByRole('link', { name: other.title }).waitFor();

    await panel.getByRole('tab', { name: 'Work Unit' }).click();
    const note = panel.getByRole('region', { name: 'Notes' }).getByRole('textbox', { name: 'New note' });
    await note.fill('Half a note');
    await panel.getByRole('tab', { name: /Related/ }).click();
    await table.getByRole('link', { name: other.title }).click();
    await answer(page, 'No');
    expect(param(page, 'workUnitId')).toBe(String(unit.workUnitId));
    await panel.getByRole('tab', { name: 'Work Unit' }).click();
    expect(await note.inputValue()).toBe('Half a note');

    await panel.getByRole('tab', { name: /Related/ }).click();
    await table.getByRole('link', { name: other.title }).click();
    await answer(page, 'Yes');
    await page.waitForURL((url) => url.searchParams.get('workUnitId') === String(other.workUnitId));
    await panel.getByRole('heading', { name: new RegExp(`^Edit Work Unit #${other.workUnitId}`) }).waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('workUnitId'));
    expect(await question(page).count()).toBe(0);
  });

  test('switching the subscriptions drawer’s inline form to another row asks while it is dirty', async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin);
    const production = await createSubscription(admin, tenant.tenantId, uniqueName('E2E production'));
    const staging = await createSubscription(admin, tenant.tenantId, uniqueName('E2E staging'));
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${homeTenantId(admin)}/tenants?subscriptionsTenantId=${tenant.tenantId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Subscriptions: ${tenant.name}` }).waitFor();
    await panel.getByRole('link', { name: production.name }).click();
    const form = panel.getByRole('form', { name: 'Subscription' });
    const name = form.getByRole('textbox', { name: 'Name' });
    await expect.poll(() => name.inputValue()).toBe(production.name);
    await name.fill(`${production.name} renamed`);

    await panel.getByRole('link', { name: staging.name }).click();
    await answer(page, 'No');
    expect(await name.inputValue()).toBe(`${production.name} renamed`);
    // The address still names the subscription whose changes were kept.
    expect(new URL(page.url()).searchParams.get('subscriptionId')).toBe(production.subscriptionId);

    await panel.getByRole('link', { name: staging.name }).click();
    await answer(page, 'Yes');
    await expect.poll(() => name.inputValue()).toBe(staging.name);
    // Clean again: another row switches without a question.
    await panel.getByRole('link', { name: production.name }).click();
    await expect.poll(() => name.inputValue()).toBe(production.name);
    expect(await question(page).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('subscriptionsTenantId'));
  });

  test('a subscriptions address whose tenant id is no GUID shows the tenants page, not the error page', async () => {
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${homeTenantId(await sessionOf(browser, 'admin'))}/tenants?subscriptionsTenantId=abc`);
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();
    expect(await page.getByText(/Something went wrong/).count()).toBe(0);
  });
});

import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { drawer, launchBrowser, newContext, serverCall, signIn } from './support';

/**
 * The drawers' unsaved-changes question (spec 000 §2: "There are unsaved changes. Are you sure
 * you want to close?", Yes / No): on Escape, on Save & Close while a note is still being written,
 * on opening a related work unit, on switching an inline form to another row, and on the
 * browser's Back; a clean drawer closes without it. admin signs in once; the tests share the page.
 */

const SUFFIX = Date.now().toString(36);

interface CurrentUser {
  tenantId: string | null;
}
interface WorkUnit {
  workUnitId: number;
  title: string;
  description: string | null;
}
interface ListResponse<T> {
  value: T[];
}

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
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let contosoId: string;
  let units: WorkUnit[];

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newContext(browser);
    page = await context.newPage();
    await signIn(page, 'admin');
    const user = await serverCall<CurrentUser>(page, '/v1/currentUser');
    if (!user.tenantId) throw new Error('admin has no tenant');
    contosoId = user.tenantId;
    // Two seeded incidents that are still New: one to edit, one to relate to it.
    const list = await serverCall<ListResponse<WorkUnit>>(page, `/v1/workunits?$filter=${encodeURIComponent('workUnitTypeId eq 1 and stateId eq 1')}&$orderby=workUnitId&$top=2`);
    units = list.value;
    if (units.length < 2) throw new Error('The seed holds fewer than two new incidents');
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  /** The tenants page with the Create Tenant drawer opened by its button (a history entry of its own). */
  async function openCreateTenant(): Promise<Locator> {
    await page.goto(`/${contosoId}/tenants`);
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('editTenantId') === 'new');
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Tenant' }).waitFor();
    return panel;
  }

  test('Escape on a tenant drawer with typed input asks; No keeps the drawer and the input, Yes closes it', async () => {
    const panel = await openCreateTenant();
    const name = panel.getByRole('textbox', { name: 'Name' });
    await name.fill(`Unsaved ${SUFFIX}`);
    await name.press('Escape');
    await answer(page, 'No');
    expect(await name.inputValue()).toBe(`Unsaved ${SUFFIX}`);
    expect(param(page, 'editTenantId')).toBe('new');

    await name.press('Escape');
    await answer(page, 'Yes');
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await panel.waitFor({ state: 'detached' });
  });

  test('Save & Close of a new tenant saves it and closes without asking: the saved form is clean', async () => {
    const panel = await openCreateTenant();
    await panel.getByRole('textbox', { name: 'Name' }).fill(`Saved and closed ${SUFFIX}`);
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await panel.waitFor({ state: 'detached' });
    expect(await question(page).count()).toBe(0);
    await page.getByRole('row').filter({ hasText: `Saved and closed ${SUFFIX}` }).waitFor();
  });

  test('a clean drawer closes on Escape and on Back without asking', async () => {
    let panel = await openCreateTenant();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await panel.waitFor({ state: 'detached' });
    expect(await question(page).count()).toBe(0);

    panel = await openCreateTenant();
    await page.evaluate(() => history.back());
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await panel.waitFor({ state: 'detached' });
    expect(await question(page).count()).toBe(0);
  });

  test('the browser Back from a dirty drawer asks; No keeps the drawer and the input, Yes goes back', async () => {
    const panel = await openCreateTenant();
    const name = panel.getByRole('textbox', { name: 'Name' });
    await name.fill(`Back ${SUFFIX}`);
    await page.evaluate(() => history.back());
    await answer(page, 'No');
    // The router puts the drawer's entry back.
    await expect.poll(() => param(page, 'editTenantId')).toBe('new');
    expect(await name.inputValue()).toBe(`Back ${SUFFIX}`);
    await panel.getByRole('heading', { name: 'Create Tenant' }).waitFor();

    await page.evaluate(() => history.back());
    await answer(page, 'Yes');
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await panel.waitFor({ state: 'detached' });
  });

  test('Save & Close of the work unit form asks while a note is still being written; No keeps the note, the form is saved', async () => {
    const [unit] = units;
    if (!unit) throw new Error('no unit');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: new RegExp(`^Edit Work Unit #${unit.workUnitId}`) }).waitFor();
    const note = panel.getByRole('region', { name: 'Notes' }).getByRole('textbox', { name: 'New note' });
    await note.fill(`A note not added yet ${SUFFIX}`);
    const description = `Checked the cabling (${SUFFIX}).`;
    await panel.getByRole('textbox', { name: 'Description' }).fill(description);
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === 'PATCH' && candidate.url().includes('/workunits')),
      panel.getByRole('button', { name: 'Save & Close' }).click(),
    ]);
    expect(response.status()).toBe(200);
    await answer(page, 'No');
    expect(param(page, 'workUnitId')).toBe(String(unit.workUnitId));
    expect(await note.inputValue()).toBe(`A note not added yet ${SUFFIX}`);
    // The form itself was saved: pristine again, and the server holds the description.
    await expect.poll(() => panel.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect((await serverCall<WorkUnit>(page, `/v1/workunits(${unit.workUnitId})`)).description).toBe(description);

    // Without the note, Save & Close closes without a question.
    await note.fill('');
    await panel.getByRole('textbox', { name: 'Description' }).fill(`${description} Again.`);
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await page.waitForURL((url) => !url.searchParams.has('workUnitId'));
    expect(await question(page).count()).toBe(0);
  });

  test('opening a related work unit from the panel asks while there are unsaved changes', async () => {
    const [unit, other] = units;
    if (!unit || !other) throw new Error('no units');
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}&tab=related`);
    const panel = drawer(page);
    await panel.getByRole('combobox', { name: 'Relate a work unit' }).fill(String(other.workUnitId));
    await page.getByRole('option', { name: `#${other.workUnitId} ${other.title}` }).click();
    const table = panel.getByRole('table', { name: 'Related Work Units' });
    await table.getByRole('button', { name: other.title }).waitFor();

    await panel.getByRole('tab', { name: 'Work Unit' }).click();
    const note = panel.getByRole('region', { name: 'Notes' }).getByRole('textbox', { name: 'New note' });
    await note.fill(`Half a note ${SUFFIX}`);
    await panel.getByRole('tab', { name: /Related/ }).click();
    await table.getByRole('button', { name: other.title }).click();
    await answer(page, 'No');
    expect(param(page, 'workUnitId')).toBe(String(unit.workUnitId));
    await panel.getByRole('tab', { name: 'Work Unit' }).click();
    expect(await note.inputValue()).toBe(`Half a note ${SUFFIX}`);

    await panel.getByRole('tab', { name: /Related/ }).click();
    await table.getByRole('button', { name: other.title }).click();
    await answer(page, 'Yes');
    await page.waitForURL((url) => url.searchParams.get('workUnitId') === String(other.workUnitId));
    await panel.getByRole('heading', { name: new RegExp(`^Edit Work Unit #${other.workUnitId}`) }).waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('workUnitId'));
    expect(await question(page).count()).toBe(0);
  });

  test('switching the subscriptions drawer’s inline form to another row asks while it is dirty', async () => {
    await page.goto(`/${contosoId}/tenants?subscriptionsTenantId=${contosoId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Subscriptions: Contoso' }).waitFor();
    await panel.getByRole('button', { name: 'Contoso Production' }).click();
    const form = panel.getByRole('form', { name: 'Subscription' });
    const name = form.getByRole('textbox', { name: 'Name' });
    await expect.poll(() => name.inputValue()).toBe('Contoso Production');
    await name.fill(`Contoso Production ${SUFFIX}`);

    await panel.getByRole('button', { name: 'Contoso Staging' }).click();
    await answer(page, 'No');
    expect(await name.inputValue()).toBe(`Contoso Production ${SUFFIX}`);

    await panel.getByRole('button', { name: 'Contoso Staging' }).click();
    await answer(page, 'Yes');
    await expect.poll(() => name.inputValue()).toBe('Contoso Staging');
    // Clean again: another row switches without a question.
    await panel.getByRole('button', { name: 'Contoso Production' }).click();
    await expect.poll(() => name.inputValue()).toBe('Contoso Production');
    expect(await question(page).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('subscriptionsTenantId'));
  });

  test('a subscriptions address whose tenant id is no GUID shows the tenants page, not the error page', async () => {
    await page.goto(`/${contosoId}/tenants?subscriptionsTenantId=abc`);
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();
    expect(await page.getByText(/Something went wrong/).count()).toBe(0);
  });
});

import fs from 'node:fs/promises';
import type { Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { COPY_TOOLTIP_MS } from '@cfs/contracts/constants';
import type { Tenant } from '@cfs/contracts/tenants';
import { AGENT_UPDATE_MESSAGES } from '@cfs/contracts/agent-updates';
import { TOKEN_MESSAGES } from '@cfs/contracts/tokens';
import { CATEGORY_MESSAGES } from '@cfs/contracts/work-unit-settings';
import {
  api,
  browser,
  choose,
  createSubscription,
  createTenant,
  createToken,
  drawer,
  gridRow,
  homeTenantId,
  pauseClock,
  portalDatabase,
  portalUrl,
  runClockUntil,
  saveNewToken,
  screenshot,
  screenshotAtWidths,
  searchGrid,
  serverCall,
  sessionOf,
  signedInPage,
  toastShown,
  uniqueName,
  type ListResponse,
} from './support';
import type { JsonOf } from '../src/lib/json-types';

/**
 * Administration in the browser (spec 001 §2 Tenants, Tokens, Work unit settings; issue 3):
 * tenants with custom fields, intake schema, secrets and subscriptions; tenant tokens shown once
 * and revoked; work unit categories and subcategories; every validation message for bad input.
 * Each test makes the tenants and tokens it works on through the API (or in the test itself)
 * under unique names, and finds them in the grids by those names.
 */

const INTAKE_SCHEMA = JSON.stringify({
  title: 'Intake',
  type: 'object',
  required: ['summary'],
  properties: { summary: { type: 'string', title: 'Summary' } },
});
const CLIPBOARD = ['clipboard-read', 'clipboard-write'];

type TenantRow = JsonOf<Tenant>;

describe('administration (admin)', () => {
  async function contosoId(): Promise<string> {
    return homeTenantId(await sessionOf(browser, 'admin'));
  }

  /** The tenants page with the Create Tenant drawer open. */
  async function openCreateTenant(page: Page) {
    await page.goto(`/${await contosoId()}/tenants?editTenantId=new`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Tenant' }).waitFor();
    return panel;
  }

  /** The tenants page searched for one tenant, its row shown. */
  async function tenantsPageWith(page: Page, name: string) {
    await page.goto(`/${await contosoId()}/tenants`);
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();
    await searchGrid(page, name);
    const row = gridRow(page, name);
    await row.waitFor();
    return row;
  }

  test('Tenants lists the tenants with their columns; a search on Enter narrows the list, and both exports download it as tenants.csv', async () => {
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${await contosoId()}/tenants`);
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();
    for (const header of ['Name', 'Internal Notification Email', 'Enabled', 'Assignment Groups', 'Modified']) {
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    }
    const rows = page.locator('.MuiDataGrid-row');
    await rows.first().waitFor();
    await screenshot(page, 'admin-tenants');

    await searchGrid(page, 'Fabrikam');
    await gridRow(page, 'Fabrikam').first().waitFor();
    await expect.poll(() => gridRow(page, 'Contoso').count()).toBe(0);
    for (const text of await rows.allTextContents()) expect(text).toContain('Fabrikam');

    for (const button of ['Export Page', 'Export All']) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: button }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('tenants.csv');
      const [header = '', ...lines] = (await fs.readFile(await download.path(), 'utf8')).split(/\r?\n/).filter(Boolean);
      // The grid's columns under their titles, in its order (the row actions are no data).
      expect(header).toBe('Name,Internal Notification Email,Enabled,Assignment Groups,Modified');
      // The export follows the search: the Fabrikam row only.
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toContain('Fabrikam');
    }

    await searchGrid(page, 'Contoso');
    await gridRow(page, 'Contoso').first().waitFor();
  });

  test('an editTenantId that is no GUID shows "This tenant does not exist." and is never put into a request', async () => {
    const page = await signedInPage(browser, 'admin');
    const sent: string[] = [];
    const onRequest = (request: Request) => {
      sent.push(decodeURIComponent(new URL(request.url()).pathname));
    };
    page.on('request', onRequest);
    await page.goto(`/${await contosoId()}/tenants?editTenantId=${encodeURIComponent('x)/../../tokens(')}`);
    const panel = drawer(page);
    await panel.getByText('This tenant does not exist.').waitFor();
    page.off('request', onRequest);
    expect(sent.filter((path) => path.includes('/tenants(') || path.includes('tokens'))).toEqual([]);
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
  });

  test('a new tenant without a name shows "Please enter a name."', async () => {
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${await contosoId()}/tenants`);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('editTenantId') === 'new');
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Tenant' }).waitFor();
    // Pristine: both buttons disabled (spec 000 §5); touching the name enables Save & Close.
    expect(await panel.getByRole('button', { name: 'Save & Close' }).isDisabled()).toBe(true);
    await panel.getByRole('textbox', { name: 'Name' }).focus();
    await panel.getByRole('textbox', { name: 'Internal Notification Email' }).focus();
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await panel.getByText('Please enter a name.').waitFor();
    await screenshot(page, 'admin-tenant-name-required');
  });

  test('Additional Fields: a duplicate column shows "Can not have duplicate custom fields."; empty names and dropdown options are asked for', async () => {
    const page = await signedInPage(browser, 'admin');
    const panel = await openCreateTenant(page);
    await panel.getByRole('textbox', { name: 'Name' }).fill(uniqueName('E2E tenant'));
    await panel.getByRole('tab', { name: 'Additional Fields' }).click();
    await panel.getByRole('button', { name: 'Add Field' }).click();
    await panel.getByRole('button', { name: 'Add Field' }).click();
    const first = panel.getByRole('group', { name: 'Additional field 1' });
    const second = panel.getByRole('group', { name: 'Additional field 2' });
    expect(await first.getByRole('combobox', { name: 'Column' }).textContent()).toBe('workUnitField1');
    expect(await second.getByRole('combobox', { name: 'Column' }).textContent()).toBe('workUnitField2');
    await choose(second, page, 'Column', 'workUnitField1');
    await choose(second, page, 'Type', 'Dropdown');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    expect(await panel.getByText('Can not have duplicate custom fields.').count()).toBe(2);
    expect(await panel.getByText('Please enter a field name.').count()).toBe(2);
    await panel.getByText('Please enter the options of the dropdown, separated by commas.').waitFor();
    await screenshot(page, 'admin-tenant-duplicate-fields');

    await first.getByRole('textbox', { name: 'Name' }).fill('Region');
    await choose(second, page, 'Column', 'workUnitField2');
    await second.getByRole('textbox', { name: 'Name' }).fill('Priority');
    await second.getByRole('textbox', { name: 'Options' }).fill('Low, High');
    await expect.poll(() => panel.getByText('Can not have duplicate custom fields.').count()).toBe(0);
  });

  test('Intake Wizard Form: text that is not JSON shows "The intake wizard form must be JSON."; an uploaded .json file replaces it', async () => {
    const page = await signedInPage(browser, 'admin');
    const panel = await openCreateTenant(page);
    await panel.getByRole('textbox', { name: 'Name' }).fill(uniqueName('E2E tenant'));
    await panel.getByRole('tab', { name: 'Intake Wizard Form' }).click();
    const editor = panel.getByRole('textbox', { name: 'Intake Wizard Form (JSON)' });
    await editor.fill('{ "title": "Intake", ');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('The intake wizard form must be JSON.').waitFor();
    await screenshot(page, 'admin-tenant-intake-not-json');

    await panel
      .locator('input[type="file"]')
      .setInputFiles({ name: 'intake.json', mimeType: 'application/json', buffer: Buffer.from(INTAKE_SCHEMA) });
    await expect.poll(() => editor.inputValue()).toBe(INTAKE_SCHEMA);
    await expect.poll(() => panel.getByText('The intake wizard form must be JSON.').count()).toBe(0);
  });

  test('a JSON text that is no JSON Schema is refused by the server: "Unable to save tenant, please try again." and its text on the field', async () => {
    const name = uniqueName('E2E tenant');
    const page = await signedInPage(browser, 'admin');
    const panel = await openCreateTenant(page);
    await panel.getByRole('textbox', { name: 'Name' }).fill(name);
    await panel.getByRole('tab', { name: 'Intake Wizard Form' }).click();
    await panel.getByRole('textbox', { name: 'Intake Wizard Form (JSON)' }).fill('{ "type": 12 }');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Unable to save tenant, please try again.').waitFor();
    await panel.getByText(/The intake wizard form is not a valid JSON Schema/).waitFor();
    await screenshot(page, 'admin-tenant-server-error');
    // Still a new tenant: nothing was created.
    expect(new URL(page.url()).searchParams.get('editTenantId')).toBe('new');
    const named = await api<ListResponse<TenantRow>>(
      await sessionOf(browser, 'admin'),
      `/v1/tenants?$filter=${encodeURIComponent(`name eq '${name}'`)}`,
    );
    expect(named.value).toEqual([]);
  });

  test('saving a tenant with details, two custom fields and the intake schema keeps the drawer open on it; closed, the grid lists it', async () => {
    const name = uniqueName('E2E Northwind');
    const page = await signedInPage(browser, 'admin');
    const panel = await openCreateTenant(page);
    await panel.getByRole('textbox', { name: 'Name' }).fill(name);
    await panel.getByRole('textbox', { name: 'Internal Notification Email' }).fill('noc@northwind.example');
    const groups = panel.getByRole('combobox', { name: 'Assignment Groups' });
    await groups.fill('Tier 1');
    await groups.press('Enter');
    await groups.fill('Tier 2,');
    await panel.getByRole('button', { name: 'Tier 2' }).waitFor();
    await panel.getByRole('tab', { name: 'Additional Fields' }).click();
    await panel.getByRole('button', { name: 'Add Field' }).click();
    await panel.getByRole('button', { name: 'Add Field' }).click();
    const second = panel.getByRole('group', { name: 'Additional field 2' });
    await panel
      .getByRole('group', { name: 'Additional field 1' })
      .getByRole('textbox', { name: 'Name' })
      .fill('Region');
    await second.getByRole('textbox', { name: 'Name' }).fill('Priority');
    await choose(second, page, 'Type', 'Dropdown');
    await second.getByRole('textbox', { name: 'Options' }).fill('Low, High');
    await panel.getByRole('tab', { name: 'Intake Wizard Form' }).click();
    await panel.getByRole('textbox', { name: 'Intake Wizard Form (JSON)' }).fill(INTAKE_SCHEMA);
    await panel.getByRole('button', { name: 'Save', exact: true }).click();

    await page.waitForURL((url) => /^[0-9a-f-]{36}$/.test(url.searchParams.get('editTenantId') ?? ''));
    const tenantId = new URL(page.url()).searchParams.get('editTenantId') ?? '';
    await panel.getByRole('heading', { name: `Edit Tenant: ${name}` }).waitFor();
    await panel.getByRole('tab', { name: 'Secrets' }).waitFor();
    const tenant = await serverCall<TenantRow>(page, `/v1/tenants(${tenantId})`);
    expect(tenant).toMatchObject({
      name,
      internalNotificationEmailAddress: 'noc@northwind.example',
      assignmentGroups: 'Tier 1,Tier 2',
      workUnitField3: null,
    });
    expect(JSON.parse(tenant.workUnitField1 ?? 'null')).toEqual({ Name: 'Region', Type: 1, Options: '' });
    expect(JSON.parse(tenant.workUnitField2 ?? 'null')).toEqual({ Name: 'Priority', Type: 2, Options: 'Low,High' });
    expect(JSON.parse(tenant.intakeWizardSchema ?? 'null')).toEqual(JSON.parse(INTAKE_SCHEMA));

    await panel.getByRole('tab', { name: 'Additional Fields' }).click();
    await panel.getByRole('group', { name: 'Additional field 2' }).getByRole('textbox', { name: 'Options' }).waitFor();
    await screenshot(page, 'admin-tenant-custom-fields');

    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('editTenantId'));
    await searchGrid(page, name);
    await gridRow(page, name).waitFor();
  });

  test('Agent Updates: a halted rollout is shown and resumed; a pinned version and a staged rollout are saved', async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin);
    const { subscriptionId } = await createSubscription(admin, tenant.tenantId, 'Line 1');
    // Two devices as their agents' reports leave them: one runs the portal's agent, one went back from it.
    const db = await portalDatabase();
    let version: string;
    try {
      const release = await db.query<{ package_version_id: string; version: string }>(
        `SELECT v.package_version_id, v.version FROM package_version v JOIN package p USING (package_id)
          WHERE p.tenant_id IS NULL AND p.package_type_id = 5 AND v.package_version_status_id = 1`,
      );
      version = release.rows[0]!.version;
      for (const name of ['e2e-agent-a', 'e2e-agent-b'])
        await db.query(`INSERT INTO device (tenant_id, subscription_id, name, agent_version) VALUES ($1, $2, $3, $4)`, [
          tenant.tenantId,
          subscriptionId,
          uniqueName(name),
          name === 'e2e-agent-a' ? version : '0.0.9',
        ]);
      await db.query(
        `INSERT INTO agent_rollout (tenant_id, package_version_id, halted, halted_reason)
          VALUES ($1, $2, now(), 'A device went back from it (device e2e-agent-b): It ended 3 times.')`,
        [tenant.tenantId, release.rows[0]!.package_version_id],
      );
    } finally {
      await db.end();
    }

    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${await contosoId()}/tenants?editTenantId=${tenant.tenantId}&tab=agent`);
    const panel = drawer(page);
    await panel.getByRole('tab', { name: 'Agent Updates', selected: true }).waitFor();
    const rollout = panel.getByLabel('Rollout');
    await rollout.getByText(`Rollout of ${version}`).waitFor();
    await rollout.getByText('1 of 2 devices run it').waitFor();
    await rollout
      .getByRole('alert')
      .getByText(/It ended 3 times\./)
      .waitFor();
    await screenshot(page, 'admin-tenant-agent-updates-halted');
    await rollout.getByRole('button', { name: 'Resume' }).click();
    await toastShown(page, AGENT_UPDATE_MESSAGES.resumed);
    await rollout.getByRole('alert').waitFor({ state: 'detached' });

    await choose(panel, page, 'Agent version', version);
    await panel.getByRole('textbox', { name: 'First stage (% of devices)' }).fill('0');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText(AGENT_UPDATE_MESSAGES.rolloutPercent).waitFor();
    await panel.getByRole('textbox', { name: 'First stage (% of devices)' }).fill('25');
    await panel.getByRole('textbox', { name: 'Rollback after (minutes)' }).fill('30');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await toastShown(page, AGENT_UPDATE_MESSAGES.saved);
    expect(await serverCall(page, `/v1/agentUpdatePolicies/${tenant.tenantId}`)).toMatchObject({
      version,
      rolloutPercent: 25,
      rollbackMinutes: 30,
    });
    await page.reload();
    const stage = panel.getByRole('textbox', { name: 'First stage (% of devices)' });
    await stage.waitFor();
    expect(await stage.inputValue()).toBe('25');
    expect(await panel.getByRole('combobox', { name: 'Agent version' }).textContent()).toBe(version);
    await screenshot(page, 'admin-tenant-agent-updates');
  });

  test('Secrets: a secret is added, listed masked, revealed and copied, given a new version, and deleted after a question', async () => {
    const tenant = await createTenant(await sessionOf(browser, 'admin'));
    const page = await signedInPage(browser, 'admin', { permissions: CLIPBOARD });
    await page.goto(`/${await contosoId()}/tenants?editTenantId=${tenant.tenantId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit Tenant: ${tenant.name}` }).waitFor();
    await panel.getByRole('tab', { name: 'Secrets' }).click();
    await panel.getByText('This tenant has no secrets.').waitFor();
    const add = panel.getByRole('form', { name: 'Add secret' });
    await add.getByRole('textbox', { name: 'Name' }).fill('bad name!');
    await add.getByLabel(/^Value/).fill('x');
    await add.getByRole('button', { name: 'Add' }).click();
    await add.getByText('Please enter a secret name (letters, digits, dots, dashes and underscores).').waitFor();
    await add.getByRole('textbox', { name: 'Name' }).fill('smtp-password');
    await add.getByLabel(/^Value/).fill('s3cr3t-one');
    await add.getByRole('button', { name: 'Add' }).click();

    const row = panel.getByRole('row').filter({ hasText: 'smtp-password' });
    await row.getByLabel('Hidden value').waitFor();
    expect(await row.textContent()).not.toContain('s3cr3t-one');
    await row.getByRole('button', { name: 'Reveal smtp-password' }).click();
    await row.getByText('s3cr3t-one').waitFor();
    await row.getByRole('button', { name: 'Copy smtp-password' }).click();
    await page.getByRole('tooltip', { name: 'Copied to clipboard' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('s3cr3t-one');
    await screenshot(page, 'admin-tenant-secret-revealed');

    await row.getByRole('button', { name: 'Set new value of smtp-password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set New Value: smtp-password' });
    await dialog.getByLabel(/^Value/).fill('s3cr3t-two');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByRole('cell', { name: '2', exact: true }).waitFor();
    await row.getByLabel('Hidden value').waitFor();
    await row.getByRole('button', { name: 'Reveal smtp-password' }).click();
    await row.getByText('s3cr3t-two').waitFor();

    await add.getByRole('textbox', { name: 'Name' }).fill('old-key');
    await add.getByLabel(/^Value/).fill('to-be-deleted');
    await add.getByRole('button', { name: 'Add' }).click();
    const old = panel.getByRole('row').filter({ hasText: 'old-key' });
    await old.getByRole('button', { name: 'Delete old-key' }).click();
    const question = page.getByRole('dialog', { name: 'Delete Secret' });
    await question.getByRole('button', { name: 'Yes' }).click();
    await old.waitFor({ state: 'detached' });
    await row.waitFor();
  });

  test('Subscriptions: a subscription without a name shows "Please enter a name."; a saved one is listed, its title links to it, and the header picker offers it', async () => {
    const tenant = await createTenant(await sessionOf(browser, 'admin'));
    const subscription = uniqueName('E2E subscription');
    const page = await signedInPage(browser, 'admin');
    const tenantRow = await tenantsPageWith(page, tenant.name);
    await tenantRow.getByRole('button', { name: 'Subscriptions' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Subscriptions: ${tenant.name}` }).waitFor();
    await panel.getByRole('button', { name: 'Create', exact: true }).click();
    const form = panel.getByRole('form', { name: 'Subscription' });
    await form.getByRole('textbox', { name: 'Name' }).focus();
    await form.getByRole('textbox', { name: 'Name' }).blur();
    await form.getByRole('button', { name: 'Save & Close' }).click();
    await form.getByText('Please enter a name.').waitFor();
    await form.getByRole('textbox', { name: 'Name' }).fill(subscription);
    await form.getByRole('button', { name: 'Save & Close' }).click();
    await form.waitFor({ state: 'detached' });
    await panel.getByRole('row').filter({ hasText: subscription }).waitFor();
    await screenshot(page, 'admin-subscriptions');
    // Its title is a link: the address it names opens the subscription's form, in a new tab too.
    const title = panel.getByRole('row').filter({ hasText: subscription }).getByRole('link', { name: subscription });
    const address = new URL((await title.getAttribute('href')) ?? '', portalUrl());
    expect(address.searchParams.get('subscriptionsTenantId')).toBe(tenant.tenantId);
    const other = await signedInPage(browser, 'admin');
    await other.goto(`${address.pathname}${address.search}`);
    await expect
      .poll(() =>
        drawer(other).getByRole('form', { name: 'Subscription' }).getByRole('textbox', { name: 'Name' }).inputValue(),
      )
      .toBe(subscription);
    await other.close();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('subscriptionsTenantId'));

    await page.getByRole('button', { name: /^Tenant and subscription:/ }).click();
    const picker = page.getByRole('dialog', { name: 'Tenant > Subscription' });
    await choose(picker, page, 'Tenant', tenant.name);
    await picker.getByRole('combobox', { name: 'Subscription' }).click();
    await page.getByRole('listbox').getByRole('option', { name: subscription }).waitFor();
    await screenshot(page, 'admin-picker-subscription');
    await page.keyboard.press('Escape');
    await picker.getByRole('button', { name: 'Cancel' }).click();
    await picker.waitFor({ state: 'detached' });
  });

  test('Disable asks first, then the tenant shows as disabled; Enable turns it back on', async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin);
    const page = await signedInPage(browser, 'admin');
    const row = await tenantsPageWith(page, tenant.name);
    await row.getByRole('button', { name: 'Disable' }).click();
    const question = page.getByRole('dialog', { name: 'Disable Tenant' });
    await question.getByText(`Are you sure you want to disable the tenant "${tenant.name}"?`).waitFor();
    await question.getByRole('button', { name: 'Yes' }).click();
    await row.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await api<TenantRow>(admin, `/v1/tenants(${tenant.tenantId})`)).enabled).toBe(false);
    await row.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('dialog', { name: 'Enable Tenant' }).getByRole('button', { name: 'Yes' }).click();
    await row.getByRole('button', { name: 'Disable' }).waitFor();
    expect((await api<TenantRow>(admin, `/v1/tenants(${tenant.tenantId})`)).enabled).toBe(true);
  });

  test('the tenant drawer’s History lists who changed the tenant and what, newest first', async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin);
    // Disabled and enabled again: two updates after the create.
    for (let i = 0; i < 2; i++) await api(admin, `/v1/tenants/${tenant.tenantId}/toggledisabled`, { method: 'POST' });
    const page = await signedInPage(browser, 'admin');
    const row = await tenantsPageWith(page, tenant.name);
    await row.getByRole('link', { name: tenant.name, exact: true }).click();
    const panel = drawer(page);
    await panel.getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('dialog', { name: 'Change history' });
    const entries = history.getByRole('listitem');
    await expect.poll(() => entries.count()).toBe(3);
    await history.getByText('enabled: false → true').waitFor();
    expect(await entries.first().textContent()).toContain('admin · update');
    expect(await entries.last().textContent()).toContain('admin · create');
    await screenshot(page, 'admin-tenant-history');
    await history.getByRole('button', { name: 'Close' }).click();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
  });

  test('Tenant Tokens: a token without a name or a lifetime shows "Please enter a name." and "Please choose a lifetime."', async () => {
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${await contosoId()}/tokens`);
    await page.getByRole('heading', { level: 1, name: 'Tenant Tokens' }).waitFor();
    for (const header of ['Name', 'Description', 'Created', 'Expires On', 'Status', 'Token']) {
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    }
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Token' }).waitFor();
    await panel.getByRole('textbox', { name: 'Description' }).fill('Device agent of the lab');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Please enter a name.').waitFor();
    await panel.getByText('Please choose a lifetime.').waitFor();
    await screenshot(page, 'admin-token-validation');
  });

  test('creating a token shows it once with a copy button ("Copied to clipboard" for 1 s, and the info toast "copied to clipboard.") and the warning', async () => {
    const name = uniqueName('e2e-agent');
    const page = await signedInPage(browser, 'admin', { permissions: CLIPBOARD, clock: true });
    await page.goto(`/${await contosoId()}/tokens`);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const panel = await saveNewToken(page, name);
    await panel.getByText('Copy this token now. It cannot be viewed again after you leave this page.').waitFor();
    const generatedToken = (await panel.getByLabel('Generated token').textContent()) ?? '';
    expect(generatedToken).toMatch(/^cfs_[0-9A-Za-z]{46}$/);

    await pauseClock(page);
    await panel.getByRole('button', { name: 'Copy token' }).click();
    const tooltip = page.getByRole('tooltip', { name: 'Copied to clipboard' });
    await tooltip.waitFor();
    await page.getByText('copied to clipboard.', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(generatedToken);
    await screenshot(page, 'admin-token-generated');
    await page.clock.runFor(COPY_TOOLTIP_MS - 50);
    expect(await tooltip.isVisible()).toBe(true);
    // Then it goes, once its fade-out has run.
    await runClockUntil(page, async () => !(await tooltip.isVisible()), { maxMs: 500 });
    await page.clock.resume();

    // Back closes the drawer, once the question whether to let the token go is answered Yes;
    // Forward opens the grant again, without its token.
    await page.evaluate(() => history.back());
    const question = page.getByRole('dialog', { name: 'Unsaved changes' });
    await question.getByText(TOKEN_MESSAGES.closeWhileShown).waitFor();
    await question.getByRole('button', { name: 'Yes', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('tokenGrantId'));
    await page.goForward();
    await page.waitForURL((url) => url.searchParams.has('tokenGrantId'));
    await panel.getByRole('heading', { name: `Edit Token: ${name}` }).waitFor();
    expect(await page.getByText(generatedToken).count()).toBe(0);

    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('tokenGrantId'));
    await panel.waitFor({ state: 'hidden' });
    await searchGrid(page, name);
    const row = gridRow(page, name);
    await row.getByText('Active').waitFor();
    const prefix = (await row.getByRole('gridcell').filter({ hasText: '…' }).textContent())?.replace('…', '') ?? '';
    expect(prefix.length).toBeGreaterThan(4);
    expect(generatedToken.startsWith(prefix)).toBe(true);
    // Opened again, the grant no longer shows its token.
    await row.getByRole('button', { name: 'Edit' }).click();
    await drawer(page)
      .getByRole('heading', { name: `Edit Token: ${name}` })
      .waitFor();
    expect(await page.getByText(generatedToken).count()).toBe(0);
    await drawer(page).getByRole('button', { name: 'Close', exact: true }).click();
    await screenshot(page, 'admin-tokens');
  });

  test('another tenant\'s Tenant Tokens names that tenant in the header, the page and the Create drawer; a token for a year expires "in 1 y"', async () => {
    const admin = await sessionOf(browser, 'admin');
    const other = await createTenant(admin, { name: uniqueName('E2E Tokens of') });
    const token = await createToken(admin, { tenantId: other.tenantId, lifetimeYears: 1 });
    const page = await signedInPage(browser, 'admin', { width: 1440 });
    await page.goto(`/${other.tenantId}/tokens`);
    await page.getByRole('heading', { level: 1, name: 'Tenant Tokens' }).waitFor();
    await page.getByText(`Tokens of ${other.name}`).waitFor();
    await page.getByRole('button', { name: `Tenant and subscription: ${other.name}`, exact: true }).waitFor();
    const row = gridRow(page, token.name);
    await row.waitFor();
    expect(await row.locator('[data-field="expiresOn"]').textContent()).toContain('in 1 y');
    await screenshot(page, 'admin-other-tenant-tokens-1440');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await drawer(page)
      .getByText(`The token is created for ${other.name}: machines using it act in ${other.name}.`)
      .waitFor();
    await screenshot(page, 'admin-other-tenant-token-create-1440');
    await drawer(page).getByRole('button', { name: 'Close', exact: true }).click();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByText(`Tokens of ${other.name}`).waitFor();
    await screenshot(page, 'admin-other-tenant-tokens-375');
  });

  test('Revoke asks first, then the token shows as Revoked and cannot be revoked again', async () => {
    const admin = await sessionOf(browser, 'admin');
    const token = await createToken(admin);
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${await contosoId()}/tokens`);
    await searchGrid(page, token.name);
    const row = gridRow(page, token.name);
    await row.getByRole('button', { name: 'Revoke' }).click();
    const question = page.getByRole('dialog', { name: `Revoke Token: ${token.name}` });
    await question
      .getByText('Are you sure you want to revoke this token? Machines using it will be refused at once.')
      .waitFor();
    await question.getByRole('button', { name: 'Yes' }).click();
    await row.getByText('Revoked').waitFor();
    expect(await row.getByRole('button', { name: 'Revoke' }).isDisabled()).toBe(true);
    const grants = await api<ListResponse<{ tokenGrantId: string; revokedOn: string | null }>>(
      admin,
      `/v1/tokens?$filter=tenantId eq ${token.tenantId}`,
    );
    expect(grants.value.find((grant) => grant.tokenGrantId === token.tokenGrantId)?.revokedOn).toEqual(
      expect.any(String),
    );
    await screenshot(page, 'admin-token-revoked');
  });

  test('Work Unit Settings lists enabled categories by default, with the filter shown; a category without name or type shows both messages', async () => {
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${await contosoId()}/workunitsettings`);
    await page.getByRole('heading', { level: 1, name: 'Work Unit Settings' }).waitFor();
    for (const header of ['ID', 'Name', 'Tenant', 'Work Unit Type', 'Enabled', 'Visible in Resolution Center']) {
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    }
    await page.getByRole('button', { name: 'Filters (1)' }).waitFor();
    await page.getByRole('button', { name: 'Create', exact: true }).first().click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Category' }).waitFor();
    expect(await panel.getByRole('combobox', { name: 'Tenant' }).textContent()).toBe('Contoso');
    await panel.getByRole('textbox', { name: 'Name' }).focus();
    await panel.getByRole('textbox', { name: 'Name' }).blur();
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await panel.getByText('Please enter a name.').waitFor();
    await panel.getByText('Please choose a work unit type.').waitFor();
    await screenshot(page, 'admin-category-validation');
  });

  test('a saved category is listed with its tenant and type; its name again, in capitals, is refused on the name; its subcategory drawer creates a subcategory', async () => {
    const category = uniqueName('E2E Hardware');
    const subcategory = uniqueName('E2E Keyboard');
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${await contosoId()}/workunitsettings`);
    await page.getByRole('button', { name: 'Create', exact: true }).first().click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Category' }).waitFor();
    await panel.getByRole('textbox', { name: 'Name' }).fill(category);
    await choose(panel, page, 'Work Unit Type', 'Incident');
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await page.waitForURL((url) => !url.searchParams.has('workUnitCategoryId'));
    // The categories grid, above the work unit types' own.
    await searchGrid(page.locator('.MuiDataGrid-root').first(), category);
    const row = gridRow(page, category);
    await row.getByText('Contoso').waitFor();
    await row.getByText('Incident').waitFor();

    // The same name again, in other letters, is refused on the name; the drawer keeps what was typed.
    await page.getByRole('button', { name: 'Create', exact: true }).first().click();
    await panel.getByRole('heading', { name: 'Create Category' }).waitFor();
    await panel.getByRole('textbox', { name: 'Name' }).fill(category.toUpperCase());
    await choose(panel, page, 'Work Unit Type', 'Incident');
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await panel.getByText(CATEGORY_MESSAGES.categoryNameTaken).first().waitFor();
    expect(await panel.getByRole('textbox', { name: 'Name' }).inputValue()).toBe(category.toUpperCase());
    await screenshotAtWidths(page, 'admin-category-name-taken');
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Unsaved changes' })
      .getByRole('button', { name: 'Yes', exact: true })
      .click();
    await page.waitForURL((url) => !url.searchParams.has('workUnitCategoryId'));
    // (A row's text is matched whatever its case: one row is the category's alone.)
    await row.waitFor();
    await expect.poll(() => gridRow(page, category).count()).toBe(1);

    await row.getByRole('button', { name: 'Subcategories' }).click();
    const subcategories = drawer(page);
    await subcategories.getByRole('heading', { name: `Subcategories: ${category}` }).waitFor();
    await subcategories.getByRole('button', { name: 'Create', exact: true }).click();
    const form = subcategories.getByRole('form', { name: 'Subcategory' });
    await form.getByRole('textbox', { name: 'Name' }).focus();
    await form.getByRole('textbox', { name: 'Name' }).blur();
    await form.getByRole('button', { name: 'Save & Close' }).click();
    await form.getByText('Please enter a name.').waitFor();
    await form.getByRole('textbox', { name: 'Name' }).fill(subcategory);
    await form.getByRole('button', { name: 'Save & Close' }).click();
    await form.waitFor({ state: 'detached' });
    await subcategories.getByRole('row').filter({ hasText: subcategory }).waitFor();
    await screenshot(page, 'admin-subcategories');
    await subcategories.getByRole('button', { name: 'Close', exact: true }).click();

    const categoryId = Number(await row.getByRole('gridcell').first().textContent());
    const listed = await serverCall<ListResponse<{ name: string; isEnabled: boolean }>>(
      page,
      `/v1/workunitsubcategories?$filter=workUnitCategoryId eq ${categoryId}`,
    );
    expect(listed.value).toEqual([expect.objectContaining({ name: subcategory, isEnabled: true })]);
  });

  test('the Work Unit Types section shows for a user with WorkUnits.Types edit', async () => {
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${await contosoId()}/workunitsettings`);
    const section = page.getByRole('region', { name: 'Work Unit Types' });
    await section.getByRole('heading', { name: 'Work Unit Types' }).waitFor();
    await section.getByRole('row').filter({ hasText: 'Change Request' }).waitFor();
    await screenshot(page, 'admin-work-unit-settings');
  });
});

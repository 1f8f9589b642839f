import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { INTAKE_MESSAGES } from '@cfs/contracts/intake';
import { TENANT_MESSAGES } from '@cfs/contracts/values/tenants';
import {
  browser,
  choose,
  createTenant,
  drawer,
  homeTenantId,
  screenshot,
  serverCall,
  sessionOf,
  settled,
  signedInPage,
  uniqueName,
  type WorkUnitRow,
} from './support';

/**
 * The intake wizard (spec 001 §2 "Intake drawer", §4 Panels, §8 Intake): Create > Intake, the tenant
 * selection panel, a wizard of one step per section of the tenant's stored schema (Contoso's demo
 * new starter request), the Intake unit it creates, a tenant without a schema, and the schema panel.
 */
describe('the intake wizard', () => {
  async function openIntake(page: Page, tenantId: string): Promise<Locator> {
    await page.goto(`/${tenantId}/workunitsv2`);
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('menuitem', { name: 'Intake' }).click();
    const selection = drawer(page).filter({ has: page.getByRole('heading', { name: 'Select Tenant' }) });
    await settled(selection);
    return selection;
  }

  /** The intake panel, once the tenant selection panel has gone. */
  function intakePanel(page: Page): Locator {
    return drawer(page).filter({ has: page.getByRole('heading', { name: /^Intake(: |$)/ }) });
  }

  async function pickTenant(page: Page, selection: Locator, name: string): Promise<Locator> {
    await choose(selection, page, 'Tenant', name);
    // Picking a tenant closes the selection panel (spec 001 §4).
    await page.getByRole('heading', { name: 'Select Tenant' }).waitFor({ state: 'hidden' });
    const panel = intakePanel(page);
    await panel.getByRole('heading', { name: `Intake: ${name}` }).waitFor();
    return panel;
  }

  test('staff pick a tenant, go through the new starter request step by step and land on the Intake unit with the answers in its properties', async () => {
    const operator = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(operator);
    const page = await signedInPage(browser, 'operator');
    const selection = await openIntake(page, tenantId);
    await screenshot(page, 'intake-tenant-selection');
    const panel = await pickTenant(page, selection, 'Contoso');
    // An operator may not edit tenants: no schema panel.
    expect(await panel.getByRole('button', { name: 'Schema' }).count()).toBe(0);

    const stepper = panel.locator('.MuiStepper-root');
    for (const title of ['Person', 'Equipment', 'Access']) await stepper.getByText(title, { exact: true }).waitFor();
    const activeStep = () => stepper.locator('.MuiStepLabel-label.Mui-active').textContent();
    expect(await activeStep()).toBe('Person');

    // Step 1, Person: the required full name left empty blocks Next with the schema's message.
    await panel.getByRole('textbox', { name: 'Email' }).fill('jane.doe@contoso.example');
    await panel.getByLabel('Start date').fill('2027-01-04');
    await panel.getByRole('button', { name: 'Next' }).click();
    // In the words of a form, not the validator's ("must have required property 'Full name'").
    await panel.getByText('Full name is required.').waitFor();
    expect(await panel.getByText(/must have required property/).count()).toBe(0);
    expect(await activeStep()).toBe('Person');
    await screenshot(page, 'intake-step-person-required');
    await panel.getByRole('textbox', { name: 'Full name' }).fill('Jane Doe');
    await screenshot(page, 'intake-step-person');
    await panel.getByRole('button', { name: 'Next' }).click();

    // Step 2, Equipment.
    await expect.poll(activeStep).toBe('Equipment');
    await choose(panel, page, 'Laptop model', 'ThinkPad X1 Carbon');
    await panel.getByRole('spinbutton', { name: 'Monitors' }).fill('2');
    await screenshot(page, 'intake-step-equipment');
    // Back keeps what was answered.
    await panel.getByRole('button', { name: 'Back' }).click();
    await expect.poll(activeStep).toBe('Person');
    expect(await panel.getByRole('textbox', { name: 'Full name' }).inputValue()).toBe('Jane Doe');
    await panel.getByRole('button', { name: 'Next' }).click();
    await expect.poll(activeStep).toBe('Equipment');
    expect(await panel.getByRole('spinbutton', { name: 'Monitors' }).inputValue()).toBe('2');
    await panel.getByRole('button', { name: 'Next' }).click();

    // Step 3, Access: the last step submits.
    await expect.poll(activeStep).toBe('Access');
    await panel.getByRole('combobox', { name: 'Systems' }).click();
    const listbox = page.getByRole('listbox');
    await settled(listbox);
    await listbox.getByRole('option', { name: 'Email', exact: true }).click();
    await listbox.getByRole('option', { name: 'VPN', exact: true }).click();
    await page.keyboard.press('Escape');
    await listbox.waitFor({ state: 'hidden' });
    const justification = uniqueName('Joins the finance team');
    await panel.getByRole('textbox', { name: 'Justification' }).fill(justification);
    await screenshot(page, 'intake-step-access');
    await panel.getByRole('button', { name: 'Submit' }).click();

    // Spec 001 §2: redirected to /{tenantId}/workunitsv2?workUnitId={id}, the new unit's panel open.
    await page.waitForURL(
      (url) => url.pathname === `/${tenantId}/workunitsv2` && /^\d+$/.test(url.searchParams.get('workUnitId') ?? ''),
    );
    const workUnitId = Number(new URL(page.url()).searchParams.get('workUnitId'));
    expect(new URL(page.url()).searchParams.has('intake')).toBe(false);
    const unitPanel = drawer(page);
    await unitPanel
      .getByRole('heading', { name: `Edit Work Unit #${workUnitId}: New starter request: Contoso` })
      .waitFor();
    await unitPanel.getByRole('tab', { name: 'Properties' }).click();
    const properties = unitPanel.getByRole('table', { name: 'Properties' });
    await properties.getByText(justification, { exact: false }).waitFor();
    // Each answer is a row of its own, named by its section, in words rather than as JSON text.
    const rows = await properties
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '').join(' = ')),
      );
    expect(rows).toEqual([
      'person › fullName = Jane Doe',
      'person › email = jane.doe@contoso.example',
      'person › startDate = 2027-01-04',
      'equipment › laptopModel = ThinkPad X1 Carbon',
      'equipment › monitors = 2',
      'equipment › headset = No',
      'access › systems = Email, VPN',
      `access › justification = ${justification}`,
    ]);
    await settled(unitPanel);
    await screenshot(page, 'intake-created-unit-properties');

    const unit = await serverCall<WorkUnitRow>(page, `/v1/workunits(${workUnitId})?$expand=workUnitType`);
    expect(unit).toMatchObject({
      title: 'New starter request: Contoso',
      severityId: 3,
      stateId: 1,
      tenantId,
      workUnitType: { name: 'Intake' },
    });
    expect(JSON.parse(unit.properties ?? '{}')).toEqual({
      person: { fullName: 'Jane Doe', email: 'jane.doe@contoso.example', startDate: '2027-01-04' },
      equipment: { laptopModel: 'ThinkPad X1 Carbon', monitors: 2, headset: false },
      access: { systems: ['Email', 'VPN'], justification },
    });
  });

  test('a tenant without a schema shows the message; the schema panel refuses a file that is not JSON and one that is no JSON Schema, and takes a schema', async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin, { name: uniqueName('E2E intake tenant') });
    const page = await signedInPage(browser, 'admin');
    const selection = await openIntake(page, homeTenantId(admin));
    const panel = await pickTenant(page, selection, tenant.name);
    await panel.getByText(INTAKE_MESSAGES.noSchema).waitFor();
    await screenshot(page, 'intake-no-schema');

    await panel.getByRole('button', { name: 'Schema' }).click();
    const schemaPanel = drawer(page).filter({
      has: page.getByRole('heading', { name: `Intake Schema: ${tenant.name}` }),
    });
    await settled(schemaPanel);
    await schemaPanel.getByText(INTAKE_MESSAGES.noSchema).waitFor();
    const file = schemaPanel.locator('input[type="file"]');

    await file.setInputFiles({
      name: 'intake.json',
      mimeType: 'application/json',
      buffer: Buffer.from('title: not json'),
    });
    await schemaPanel.getByText(TENANT_MESSAGES.intakeSchemaNotJson, { exact: true }).waitFor();
    await screenshot(page, 'intake-schema-not-json');

    await file.setInputFiles({
      name: 'intake.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{ "type": 12 }'),
    });
    await schemaPanel.getByText(/^The intake wizard form is not a valid JSON Schema/).waitFor();
    const stored = await serverCall<{ intakeWizardSchema: string | null }>(page, `/v1/tenants(${tenant.tenantId})`);
    expect(stored.intakeWizardSchema).toBeNull();

    const schema = {
      title: 'Shared mailbox',
      type: 'object',
      required: ['title'],
      properties: { title: { type: 'string', title: 'Mailbox name' }, owners: { type: 'string', title: 'Owners' } },
    };
    await file.setInputFiles({
      name: 'mailbox.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(schema)),
    });
    await page.getByText(INTAKE_MESSAGES.schemaSaved).waitFor();
    await schemaPanel.getByLabel('Current intake schema').getByText('"Shared mailbox"', { exact: false }).waitFor();
    await screenshot(page, 'intake-schema-panel');
    await schemaPanel.getByRole('button', { name: 'Close', exact: true }).click();
    await schemaPanel.waitFor({ state: 'hidden' });

    // The wizard now follows the new schema: one step, titled by the schema.
    await panel.locator('.MuiStepper-root').getByText('Shared mailbox', { exact: true }).waitFor();
    await panel.getByRole('textbox', { name: 'Mailbox name' }).waitFor();
    await panel.getByRole('button', { name: 'Submit' }).waitFor();
    await screenshot(page, 'intake-one-step-wizard');

    // Another tenant is another form: answers given are asked about first.
    await panel.getByRole('textbox', { name: 'Mailbox name' }).fill('Audit team');
    await panel.getByRole('button', { name: 'Change Tenant' }).click();
    const question = page.getByRole('dialog', { name: 'Unsaved changes' });
    await question.getByRole('button', { name: 'No' }).click();
    await question.waitFor({ state: 'hidden' });
    expect(await page.getByRole('heading', { name: 'Select Tenant' }).count()).toBe(0);
    expect(await panel.getByRole('textbox', { name: 'Mailbox name' }).inputValue()).toBe('Audit team');

    // A save that fails says so in the spec's words, and keeps the answers for another try.
    await page.route('**/api/v1/workunits', (route) =>
      route.request().method() === 'PUT' ? route.fulfill({ status: 503, body: '' }) : route.fallback(),
    );
    await panel.getByRole('button', { name: 'Submit' }).click();
    await panel.getByRole('alert').filter({ hasText: INTAKE_MESSAGES.problem }).waitFor();
    expect(await panel.getByRole('textbox', { name: 'Mailbox name' }).inputValue()).toBe('Audit team');
    await screenshot(page, 'intake-save-failed');
    await page.unroute('**/api/v1/workunits');
  });
});

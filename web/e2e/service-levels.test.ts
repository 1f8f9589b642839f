import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SERVICE_LEVEL_MESSAGES, type ServiceLevels } from '@cfs/contracts/service-levels';
import { WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import type { JsonOf } from '../src/lib/json-types';
import {
  browser,
  choose,
  createTenant,
  homeTenantId,
  newContext,
  screenshot,
  screenshotAtWidths,
  serverCall,
  sessionOf,
  settled,
  signedInPage,
  toastShown,
  tenantUserWith,
} from './support';

/**
 * The Service Levels screen (docs/features/service-levels.md "The screen"): an administrator gives
 * a tenant of its own levels of its own, changes a target and the business hours and returns it to
 * the installation's; an operator reads them; a user who may edit but is not staff of every tenant
 * is told the server's word on the installation's. Every change is made in a tenant of the test's
 * own: the installation's levels, which every other tenant follows, are never changed.
 */

type Levels = JsonOf<ServiceLevels>;

const FORBIDDEN_TOAST = 'You do not have access to one or more requested resources';

async function openLevels(page: Page, tenantId: string, query = ''): Promise<void> {
  await page.goto(`/${tenantId}/servicelevels${query}`);
  await page.getByRole('heading', { level: 1, name: 'Service Levels' }).waitFor();
  await target(page, 'Incident Sev0 Respond Within').waitFor();
}

function target(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

function levelsOf(page: Page, tenantId: string): Promise<Levels> {
  return serverCall<Levels>(page, `/v1/servicelevels/${tenantId}`);
}

/** Clicks Save and waits for the server's answer to its PUT. */
async function save(page: Page): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (candidate) => candidate.request().method() === 'PUT' && candidate.url().includes('/v1/servicelevels/'),
    ),
    page.getByRole('button', { name: 'Save', exact: true }).click(),
  ]);
  return response.status();
}

describe('Service Levels (administrator)', () => {
  test('a tenant is given levels of its own from the installation’s, a target and the business hours changed and kept, and returned to the installation’s', async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin);
    const page = await signedInPage(browser, 'admin');

    // The installation's first, then the tenant in the path, picked in Levels of.
    await openLevels(page, tenant.tenantId, '?levels=installation');
    await page
      .getByText('The installation’s service levels: every tenant without levels of its own follows them.')
      .waitFor();
    await choose(page.locator('main'), page, 'Levels of', tenant.name);
    await page.waitForURL((url) => !url.searchParams.has('levels'));
    const inherited = page.getByText('Follows the installation’s service levels.');
    await inherited.waitFor();
    // Followed, the installation's levels are shown, not changed.
    expect(await target(page, 'Incident Sev1 Respond Within').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await screenshot(page, 'service-levels-inherited');

    await page.getByRole('button', { name: 'Set Own Levels' }).click();
    await toastShown(page, SERVICE_LEVEL_MESSAGES.saved);
    await page.getByText(`${tenant.name} has service levels of its own.`).waitFor();
    const followed = await serverCall<Levels>(page, '/v1/servicelevels/installation');
    const own = await levelsOf(page, tenant.tenantId);
    expect(own.inherited).toBe(false);
    expect(own.targets).toEqual(followed.targets);

    // A target, and business hours in place of around the clock: Monday to 18:30, Friday closed.
    const respond = target(page, 'Incident Sev1 Respond Within');
    await expect.poll(() => respond.isEditable()).toBe(true);
    await respond.fill('00:30:00');
    await page.getByRole('checkbox', { name: 'Around the Clock' }).uncheck();
    await page.getByRole('textbox', { name: 'Monday End', exact: true }).fill('18:30');
    await page.getByRole('checkbox', { name: 'Friday', exact: true }).uncheck();
    // Two holidays added as the portal writes dates, one removed again.
    const holiday = page.getByRole('group', { name: 'Holiday', exact: true });
    for (const typed of ['25122026', '26122026']) {
      await holiday.getByRole('spinbutton', { name: 'Day' }).click();
      await page.keyboard.type(typed);
      await page.getByRole('button', { name: 'Add Holiday' }).click();
    }
    const holidays = page.getByTestId('holidays');
    await holidays.getByText('26/Dec/2026', { exact: true }).waitFor();
    await holidays.locator('.MuiChip-root', { hasText: '26/Dec/2026' }).locator('.MuiChip-deleteIcon').click();
    await holidays.getByText('26/Dec/2026', { exact: true }).waitFor({ state: 'detached' });
    await screenshot(page, 'service-levels-editing');
    expect(await save(page)).toBe(200);
    await toastShown(page, SERVICE_LEVEL_MESSAGES.saved);

    // The server holds them, and a reload shows them.
    const saved = await levelsOf(page, tenant.tenantId);
    expect(saved.targets).toContainEqual({
      workUnitTypeId: WORK_UNIT_TYPES.Incident,
      severityId: 1,
      respondWithin: '00:30:00',
      resolveWithin: followed.targets.find(
        (each) => each.workUnitTypeId === WORK_UNIT_TYPES.Incident && each.severityId === 1,
      )?.resolveWithin,
    });
    expect(saved.holidays).toEqual(['2026-12-25']);
    expect(saved.businessHours).toEqual([
      { weekday: 1, start: '09:00', end: '18:30' },
      { weekday: 2, start: '09:00', end: '17:00' },
      { weekday: 3, start: '09:00', end: '17:00' },
      { weekday: 4, start: '09:00', end: '17:00' },
    ]);
    await page.reload();
    await page.getByText(`${tenant.name} has service levels of its own.`).waitFor();
    expect(await target(page, 'Incident Sev1 Respond Within').inputValue()).toBe('00:30:00');
    expect(await page.getByRole('checkbox', { name: 'Around the Clock' }).isChecked()).toBe(false);
    expect(await page.getByRole('textbox', { name: 'Monday End', exact: true }).inputValue()).toBe('18:30');
    expect(await page.getByRole('checkbox', { name: 'Friday', exact: true }).isChecked()).toBe(false);
    expect(await page.getByRole('group', { name: 'Friday' }).getByText('Closed').isVisible()).toBe(true);
    expect(await page.getByTestId('holidays').innerText()).toBe('25/Dec/2026');
    await page.getByText(/^Last changed by admin, /).waitFor();
    await screenshotAtWidths(page, 'service-levels-own');

    // Returned to the installation's, after a question, it follows them again.
    await page.getByRole('button', { name: 'Return to Installation’s Levels' }).click();
    const question = page.getByRole('dialog');
    await settled(question);
    await question.getByText(`${tenant.name}’s own service levels are deleted`, { exact: false }).waitFor();
    await screenshot(page, 'service-levels-return-question');
    await question.getByRole('button', { name: 'Return', exact: true }).click();
    await toastShown(page, SERVICE_LEVEL_MESSAGES.reset);
    await inherited.waitFor();
    expect(await levelsOf(page, tenant.tenantId)).toMatchObject({
      inherited: true,
      businessHours: followed.businessHours,
    });
    expect(await target(page, 'Incident Sev1 Respond Within').inputValue()).toBe(
      followed.targets.find((each) => each.workUnitTypeId === WORK_UNIT_TYPES.Incident && each.severityId === 1)
        ?.respondWithin ?? '',
    );
  });

  test('an invalid target shows the contract’s message on its field and is not sent; a refusal of the server shows its text on the field it names', async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin);
    const page = await signedInPage(browser, 'admin');
    await openLevels(page, tenant.tenantId);
    await page.getByRole('button', { name: 'Set Own Levels' }).click();
    await toastShown(page, SERVICE_LEVEL_MESSAGES.saved);
    const resolve = target(page, 'Incident Sev2 Resolve Within');
    await expect.poll(() => resolve.isEditable()).toBe(true);

    let puts = 0;
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().includes('/v1/servicelevels/')) puts++;
    });
    await resolve.fill('00:00:30');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const row = page.getByTestId('target-Incident-Sev2');
    await row.getByText(SERVICE_LEVEL_MESSAGES.targetInvalid).waitFor();
    expect(await resolve.getAttribute('aria-invalid')).toBe('true');
    expect(puts).toBe(0);
    // Save put the focus on it, shown with its message clear of the sticky Save bar.
    await expect.poll(() => resolve.evaluate((input) => input === document.activeElement)).toBe(true);
    const bar = await page.getByRole('button', { name: 'Save', exact: true }).boundingBox();
    const message = await row.getByText(SERVICE_LEVEL_MESSAGES.targetInvalid).boundingBox();
    expect((message?.y ?? Infinity) + (message?.height ?? 0)).toBeLessThan(bar?.y ?? 0);
    await screenshot(page, 'service-levels-invalid-target');

    // What the form cannot foresee the server judges: the body is altered on its way (Intake Sev4's
    // response within 10 seconds), and the server's text lands on that row's field.
    await resolve.fill('08:00:00');
    await page.route(`**/v1/servicelevels/${tenant.tenantId}`, async (route) => {
      if (route.request().method() !== 'PUT') return route.fallback();
      const body = route.request().postDataJSON() as { targets: { workUnitTypeId: number; severityId: number }[] };
      const refused = body.targets.find(
        (each) => each.workUnitTypeId === WORK_UNIT_TYPES.Intake && each.severityId === 4,
      );
      if (refused) Object.assign(refused, { respondWithin: '00:00:10' });
      return route.continue({ postData: JSON.stringify(body) });
    });
    expect(await save(page)).toBe(400);
    const intake = page.getByTestId('target-Intake-Sev4');
    await intake.getByText(SERVICE_LEVEL_MESSAGES.targetInvalid).waitFor();
    expect(await target(page, 'Intake Sev4 Respond Within').getAttribute('aria-invalid')).toBe('true');
    await intake.evaluate((row) => row.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'service-levels-server-refusal');
    expect((await levelsOf(page, tenant.tenantId)).targets).toContainEqual(
      expect.objectContaining({ workUnitTypeId: WORK_UNIT_TYPES.Incident, severityId: 2, resolveWithin: '24:00:00' }),
    );
  });
});

describe('Service Levels read only', () => {
  test('an operator (view only) reads the tenant’s and the installation’s levels: every field disabled, no Save, no way to set or return them', async () => {
    const operator = await sessionOf(browser, 'operator');
    const page = await signedInPage(browser, 'operator');
    await openLevels(page, homeTenantId(operator));
    for (const levels of ['tenant', 'installation']) {
      expect(await target(page, 'Incident Sev1 Respond Within').isDisabled(), levels).toBe(true);
      expect(await page.getByRole('combobox', { name: 'Time Zone' }).isDisabled(), levels).toBe(true);
      expect(await page.getByRole('checkbox', { name: 'Around the Clock' }).isDisabled(), levels).toBe(true);
      expect(await page.getByRole('checkbox', { name: 'On Hold' }).isDisabled(), levels).toBe(true);
      for (const button of ['Save', 'Set Own Levels', 'Return to Installation’s Levels', 'Add Holiday'])
        expect(await page.getByRole('button', { name: button, exact: true }).count(), `${levels}: ${button}`).toBe(0);
      if (levels === 'tenant') {
        await screenshot(page, 'service-levels-operator');
        await choose(page.locator('main'), page, 'Levels of', 'Installation');
        await page.waitForURL((url) => url.searchParams.get('levels') === 'installation');
        await page.getByText('The installation’s service levels', { exact: false }).waitFor();
      }
    }
  });

  test('a user who may edit but is not staff of every tenant is told the server’s word on the installation’s levels, not the access toast', async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin);
    const userName = await tenantUserWith(tenant.tenantId, ['ServiceLevels:view', 'ServiceLevels:edit'], 'Sam Levels');
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(`/${tenant.tenantId}/servicelevels?levels=installation`);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL(/\/oidc\/interaction\//);
      await page.getByLabel('User name').fill(userName);
      await page.getByLabel('Password').fill('operator');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/servicelevels'));
      await page.getByRole('heading', { level: 1, name: 'Service Levels' }).waitFor();
      if (new URL(page.url()).searchParams.get('levels') !== 'installation')
        await choose(page.locator('main'), page, 'Levels of', 'Installation');
      const respond = target(page, 'User Request Sev4 Respond Within');
      await expect.poll(() => respond.isEditable()).toBe(true);
      const before = await serverCall<Levels>(page, '/v1/servicelevels/installation');
      await respond.fill('30:00:00');
      expect(await save(page)).toBe(403);
      await page.getByRole('alert').filter({ hasText: SERVICE_LEVEL_MESSAGES.installationOnly }).waitFor();
      expect(await page.getByText(FORBIDDEN_TOAST).count()).toBe(0);
      await screenshot(page, 'service-levels-installation-refused');
      expect((await serverCall<Levels>(page, '/v1/servicelevels/installation')).targets).toEqual(before.targets);
    } finally {
      await context.close();
    }
  });
});

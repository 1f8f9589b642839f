import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import {
  browser,
  createSubscription,
  createTenant,
  drawer,
  portalDatabase,
  screenshot,
  sessionOf,
  signedInPage,
  uniqueName,
  type Session,
} from './support';

/**
 * The Home dashboard in the browser (spec 000 §2 `/{tenantId}`): each tile's figures for a tenant
 * of the test's own, filled through the database with rows whose figures are known, and each
 * figure's link opening its area's screen filtered to the rows it counts.
 */
describe('home dashboard (admin)', () => {
  let admin: Session;
  let db: pg.Client;
  let tenantId: string;
  const mark = uniqueName('Home');
  const busyRule = `${mark} busy rule`;

  beforeAll(async () => {
    admin = await sessionOf(browser, 'admin');
    ({ tenantId } = await createTenant(admin));
    const { subscriptionId } = await createSubscription(admin, tenantId);
    db = await portalDatabase();
    const unit = (title: string, severity: number, state: number) =>
      db.query(
        'INSERT INTO work_unit (tenant_id, title, severity_id, state_id, work_unit_type_id) VALUES ($1, $2, $3, $4, $5)',
        [tenantId, `${mark} ${title}`, severity, state, WORK_UNIT_TYPES.Incident],
      );
    await unit('sev0 new A', 0, WORK_UNIT_STATES.New);
    await unit('sev0 new B', 0, WORK_UNIT_STATES.New);
    await unit('sev0 in progress', 0, WORK_UNIT_STATES.InProgress);
    await unit('sev2 acknowledged', 2, WORK_UNIT_STATES.Acknowledged);
    await unit('sev0 resolved', 0, WORK_UNIT_STATES.Resolved);
    const device = (name: string, lastContactSecondsAgo: number | null) =>
      db.query(
        `INSERT INTO device (tenant_id, subscription_id, name, heartbeat_interval, last_contact) VALUES ($1, $2, $3, 60, CASE WHEN $4::int IS NULL THEN NULL ELSE now() - $4::int * interval '1 second' END)`,
        [tenantId, subscriptionId, `${mark} ${name}`, lastContactSecondsAgo],
      );
    // Online for the next hour at least: a long heartbeat, so the test never sees it go offline.
    await db.query(
      `INSERT INTO device (tenant_id, subscription_id, name, heartbeat_interval, last_contact) VALUES ($1, $2, $3, 3600, now())`,
      [tenantId, subscriptionId, `${mark} online`],
    );
    await device('silent', 600);
    await device('never', null);
    const { rows } = await db.query<{ rule_id: string; name: string }>(
      `INSERT INTO rule (tenant_id, name, rule_type_id, conditions, match_lifetime_seconds) VALUES ($1, $2, 1, '[]', 300), ($1, $3, 1, '[]', 300) RETURNING rule_id, name`,
      [tenantId, busyRule, `${mark} quiet rule`],
    );
    const ruleId = (name: string) => rows.find((row) => row.name === name)!.rule_id;
    for (const [rule, subject] of [
      [busyRule, 'a'],
      [busyRule, 'b'],
      [`${mark} quiet rule`, 'a'],
    ] as const) {
      await db.query(
        `INSERT INTO rule_match (tenant_id, rule_id, subject_id, label, first_match, last_match, expires) VALUES ($1, $2, $3, $4, now(), now(), now() + interval '1 hour')`,
        [tenantId, ruleId(rule), subject, `${mark} match ${subject}`],
      );
    }
    const communication = (title: string, status: string, nextUpdate: string | null) =>
      db.query(
        `INSERT INTO work_unit_communication (tenant_id, title, service_manager, status, next_update) VALUES ($1, $2, 'Oscar Operator', $3, now() + $4::interval)`,
        [tenantId, `${mark} ${title}`, status, nextUpdate],
      );
    await communication('overdue', 'Investigating', '-10 minutes');
    await communication('on time', 'Investigating', '1 hour');
    await communication('resolved', 'Resolved', '-10 minutes');
  }, 60_000);
  afterAll(async () => {
    await db?.end();
  });

  async function home(page: Page): Promise<void> {
    await page.goto(`/${tenantId}`);
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    await page.getByRole('link', { name: '4 Open work units', exact: true }).waitFor();
  }

  const tile = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

  test('shows each tile with the tenant’s figures and a chart of open work units', async () => {
    const page = await signedInPage(browser, 'admin');
    await home(page);
    await tile(page, 'Open Work Units').getByRole('link', { name: 'Sev0: 3' }).waitFor();
    await tile(page, 'Open Work Units').getByRole('link', { name: 'Sev2: 1' }).waitFor();
    // The chart's legend names the open states that hold work.
    const workUnits = tile(page, 'Open Work Units');
    await workUnits.getByText('In Progress', { exact: true }).waitFor();
    expect(await workUnits.locator('svg').count()).toBeGreaterThan(0);
    expect(await workUnits.getByText('Resolved', { exact: true }).count()).toBe(0);
    await tile(page, 'Devices').getByRole('link', { name: '1 Online', exact: true }).waitFor();
    await tile(page, 'Devices').getByRole('link', { name: '2 Offline', exact: true }).waitFor();
    await tile(page, 'Devices').getByRole('link', { name: '0 Out of date', exact: true }).waitFor();
    await tile(page, 'Rule Matches').getByRole('link', { name: '3 Active rule matches', exact: true }).waitFor();
    await tile(page, 'Rule Matches').getByRole('link', { name: busyRule }).waitFor();
    await tile(page, 'Communications').getByRole('link', { name: '1 Overdue communications', exact: true }).waitFor();
    await tile(page, 'Communications').getByRole('link', { name: '2 Open communications', exact: true }).waitFor();
    await screenshot(page, 'home-dashboard');
  });

  test('a severity’s figure opens the work units grid filtered to that severity’s open work units', async () => {
    const page = await signedInPage(browser, 'admin');
    await home(page);
    await tile(page, 'Open Work Units').getByRole('link', { name: 'Sev0: 3' }).click();
    await page.waitForURL((url) => url.pathname === `/${tenantId}/workunitsv2`);
    const rows = page.locator('.MuiDataGrid-row');
    await expect
      .poll(async () => (await rows.allTextContents()).filter((text) => text.includes(mark)).length, {
        timeout: 10_000,
      })
      .toBe(3);
    const texts = await rows.allTextContents();
    expect(texts.some((text) => text.includes('sev2 acknowledged'))).toBe(false);
    expect(texts.some((text) => text.includes('sev0 resolved'))).toBe(false);
    // The filter is the grid's own: its chips name it, and the address holds it.
    const search = JSON.parse(new URL(page.url()).searchParams.get('search') ?? '{}') as {
      filters: { field: string; value: number[] }[];
    };
    expect(search.filters.find((item) => item.field === 'severityId')?.value).toEqual([0]);
    await screenshot(page, 'home-to-work-units');
  });

  test('the offline figure opens the devices grid showing only the offline devices', async () => {
    const page = await signedInPage(browser, 'admin');
    await home(page);
    await tile(page, 'Devices').getByRole('link', { name: '2 Offline', exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/${tenantId}/devices`);
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    const rows = page.locator('.MuiDataGrid-row');
    await expect
      .poll(async () => (await rows.allTextContents()).filter((text) => text.includes(mark)).length, {
        timeout: 10_000,
      })
      .toBe(2);
    await page.getByRole('button', { name: 'Filters (1)' }).waitFor();
    const names = await rows.allTextContents();
    expect(names.some((text) => text.includes(`${mark} silent`))).toBe(true);
    expect(names.some((text) => text.includes(`${mark} never`))).toBe(true);
    expect(names.some((text) => text.includes(`${mark} online`))).toBe(false);
    await screenshot(page, 'home-to-offline-devices');
  });

  test('a top rule opens the rules screen with that rule’s matches', async () => {
    const page = await signedInPage(browser, 'admin');
    await home(page);
    await tile(page, 'Rule Matches').getByRole('link', { name: busyRule }).click();
    await page.waitForURL((url) => url.pathname === `/${tenantId}/rules` && url.searchParams.has('ruleMatchesId'));
    const matches = drawer(page);
    await matches.getByText(`Rule Matches: ${busyRule}`).waitFor();
    await matches.getByText(`${mark} match a`).waitFor();
    await matches.getByText(`${mark} match b`).waitFor();
    await screenshot(page, 'home-to-rule-matches');
  });

  test('the overdue figure opens the communications screen with its Overdue filter', async () => {
    const page = await signedInPage(browser, 'admin');
    await home(page);
    await tile(page, 'Communications').getByRole('link', { name: '1 Overdue communications', exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/${tenantId}/workunitcommunications`);
    const search = JSON.parse(new URL(page.url()).searchParams.get('search') ?? '{}') as {
      filters: { field: string; value: unknown }[];
    };
    expect(search.filters).toEqual([{ id: 'isOverdue', field: 'isOverdue', operator: 'is', value: true }]);
    await page.getByRole('heading', { level: 1, name: 'Work Unit Communications' }).waitFor();
    // The screen's own Overdue switch is on, and the grid lists the overdue communication alone.
    expect(
      await page
        .getByRole('switch', { name: 'Overdue' })
        .or(page.getByRole('checkbox', { name: 'Overdue' }))
        .isChecked(),
    ).toBe(true);
    const rows = page.locator('.MuiDataGrid-row');
    await expect
      .poll(async () => (await rows.allTextContents()).filter((text) => text.includes(mark)), { timeout: 10_000 })
      .toEqual([expect.stringContaining(`${mark} overdue`)]);
    await screenshot(page, 'home-to-overdue-communications');
  });

  test('this week’s compliance of a control set opens the checklist of that set at this week', async () => {
    const page = await signedInPage(browser, 'admin');
    await home(page);
    const compliance = tile(page, 'Compliance This Week');
    const first = compliance.getByRole('link', { name: /% set \(\d+ of \d+\) \d+ non-compliant$/ }).first();
    await first.waitFor();
    await screenshot(page, 'home-dashboard-compliance');
    await first.click();
    await page.waitForURL((url) => url.pathname === `/${tenantId}/compliance` && url.searchParams.has('controlSetId'));
    const week = new URL(page.url()).searchParams.get('week') ?? '';
    // The week is given by its first day, a Sunday, and holds today.
    const start = new Date(`${week}T00:00:00`);
    expect(start.getDay()).toBe(0);
    const days = (Date.now() - start.getTime()) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(0);
    expect(days).toBeLessThan(7);
    await page.getByRole('heading', { level: 1, name: 'Compliance' }).waitFor();
  });

  test('shows only the tiles of the areas the user may view, and asks for no other', async () => {
    const page = await signedInPage(browser, 'admin', { ownContext: true });
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/v1/home/')) asked.push(url.pathname);
    });
    // The same user, holding only Work Units view: the server would refuse the other tiles.
    await page.route('**/v1/session', async (route) => {
      const response = await route.fetch();
      const start = (await response.json()) as object;
      await route.fulfill({ response, json: { ...start, permissions: ['CFS.WorkUnits:view'] } });
    });
    await page.goto(`/${tenantId}`);
    await page.getByRole('link', { name: '4 Open work units', exact: true }).waitFor();
    expect(await tile(page, 'Devices').count()).toBe(0);
    expect(await tile(page, 'Rule Matches').count()).toBe(0);
    expect(await tile(page, 'Communications').count()).toBe(0);
    expect(await tile(page, 'Compliance This Week').count()).toBe(0);
    expect([...new Set(asked)]).toEqual(['/v1/home/workunits']);
    await screenshot(page, 'home-work-units-only');
  });
});

import fs from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import type { ServiceLevelReport, ServiceLevelTimer } from '@cfs/contracts/service-levels';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import type { JsonOf } from '../src/lib/json-types';
import {
  api,
  browser,
  createTenant,
  createWorkUnit,
  drawer,
  portalDatabase,
  screenshot,
  sessionOf,
  signedInPage,
  updateWorkUnit,
} from './support';

/**
 * The monthly service level report in the browser (docs/features/service-levels.md "The report"):
 * a tenant of its own whose Sev2 incidents are to be answered within a minute, one answered in
 * time and one whose clock is moved back until the sweep finds it breached.
 */
describe('the service level report', () => {
  test('shows the month’s attainment, the week chart and the missed target linked to its unit; exports CSV; prints without controls', async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin);
    await api(admin, `/v1/servicelevels/${tenant.tenantId}`, {
      method: 'PUT',
      body: {
        timeZone: 'UTC',
        businessHours: null,
        holidays: [],
        pauseStates: [WORK_UNIT_STATES.OnHold],
        targets: [
          {
            workUnitTypeId: WORK_UNIT_TYPES.Incident,
            severityId: 2,
            respondWithin: '00:01:00',
            resolveWithin: '08:00:00',
          },
        ],
      },
    });
    const late = await createWorkUnit(admin, {
      tenantId: tenant.tenantId,
      title: 'Printer queue stuck',
      severityId: 2,
    });
    const served = await createWorkUnit(admin, { tenantId: tenant.tenantId, title: 'VPN slow', severityId: 2 });
    const clocks = (workUnitId: number) =>
      api<JsonOf<ServiceLevelTimer>[]>(admin, `/v1/servicelevels/timers/${workUnitId}`);
    await expect.poll(async () => (await clocks(served.workUnitId)).length, { timeout: 15_000 }).toBe(2);
    await updateWorkUnit(admin, served.workUnitId, { stateId: WORK_UNIT_STATES.Acknowledged });
    // The other one's response clock is moved two minutes back, as if the unit had come in then,
    // rather than waiting out its minute; the sweep (every 15 s) finds it breached.
    await expect.poll(async () => (await clocks(late.workUnitId)).length, { timeout: 15_000 }).toBe(2);
    const db = await portalDatabase();
    try {
      const moved = await db.query(
        `UPDATE service_level_timer
            SET started = started - interval '2 minutes', counted_to = counted_to - interval '2 minutes',
                due = due - interval '2 minutes', warn_at = warn_at - interval '2 minutes'
          WHERE work_unit_id = $1 AND kind = 'response' AND running`,
        [late.workUnitId],
      );
      expect(moved.rowCount).toBe(1);
    } finally {
      await db.end();
    }
    await expect
      .poll(async () => (await clocks(late.workUnitId)).find((clock) => clock.kind === 'response')?.breached ?? null, {
        timeout: 60_000,
        interval: 1_000,
      })
      .not.toBeNull();
    const month = new Date().toISOString().slice(0, 7);
    const report = await api<JsonOf<ServiceLevelReport>>(
      admin,
      `/v1/servicelevels/reports/${tenant.tenantId}?month=${month}`,
    );
    expect(report.total.response).toMatchObject({ decided: 2, met: 1, missed: 1 });

    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${tenant.tenantId}/servicelevels/report?month=${month}`);
    await page.getByRole('heading', { level: 1, name: 'Service Level Report' }).waitFor();
    const bySeverity = page.getByRole('table', { name: 'By Type and Severity' });
    const row = bySeverity.getByRole('row').filter({ hasText: 'Sev2' });
    await row.getByText('50.0%').waitFor();
    await row.getByText('1 of 2 met').waitFor();
    await page.getByText('1 of 2 met, 1 missed').waitFor();
    await page.locator('.MuiBarChart-root, svg.MuiChartsSurface-root').first().waitFor();
    const missed = page.getByRole('table', { name: 'Missed Targets' });
    await missed.getByRole('link', { name: `#${late.workUnitId} Printer queue stuck` }).waitFor();
    expect(await missed.getByRole('row').count()).toBe(2);
    await screenshot(page, 'service-level-report');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^service-levels-.+-${month}\\.csv$`));
    const lines = (await fs.readFile(await download.path(), 'utf8')).split(/\r?\n/).filter(Boolean);
    expect(lines).toContain('Incident,Sev2,Response,2,1,1,50.0%');

    // On a phone the month controls and the buttons wrap under the title, each within the screen.
    await page.setViewportSize({ width: 375, height: 800 });
    for (const name of ['Month Before', 'Month After', 'Export CSV', 'Print']) {
      const box = await page.getByRole('button', { name }).boundingBox();
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(375);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'service-level-report-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // On paper: the report without the month controls and buttons.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Export CSV' }).isVisible()).toBe(false);
    expect(await page.getByRole('navigation').first().isVisible()).toBe(false);
    await missed.waitFor();
    await screenshot(page, 'service-level-report-print');
    await page.emulateMedia({ media: 'screen' });

    // The month before holds none of it; the missed unit's link opens it.
    await page.getByRole('button', { name: 'Month Before' }).click();
    await page.getByText(/^No target was missed in /).waitFor();
    await page.getByRole('button', { name: 'Month After' }).click();
    await missed.getByRole('link', { name: `#${late.workUnitId} Printer queue stuck` }).click();
    await drawer(page)
      .getByRole('heading', { name: new RegExp(`#${late.workUnitId}`) })
      .waitFor();
  });
});

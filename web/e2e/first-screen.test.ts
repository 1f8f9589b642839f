import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { browser, checkRow, createWorkUnit, drawer, homeTenantId, sessionOf, signedInPage } from './support';

/**
 * The work units list as the first screen (issue "Speed measured against the limit"): with an
 * empty cache it paints its first row from the grid's code alone, and the panels' code (edit form,
 * date pickers, form library, intake, bulk dialogs) loads when they first open; the sign-in
 * configuration and the session's start go out while the scripts download (the page's early
 * script), the page's own calls in one round once it renders. `npm run bench` measures the bytes
 * and the time; this test keeps the shape.
 */

/** The chunks of the panels and dialogs, by the names the build gives them. */
const PANEL_CHUNKS = {
  panel: /\/assets\/work-unit-panel-[\w-]+\.js$/,
  datePickers: /\/assets\/date-pickers-[\w-]+\.js$/,
  formLibrary: /\/assets\/forms-[\w-]+\.js$/,
  intake: /\/assets\/intake-drawer-[\w-]+\.js$/,
  bulkDialogs: /\/assets\/work-unit-bulk-dialogs-[\w-]+\.js$/,
};
const isPanelChunk = (url: string) => Object.values(PANEL_CHUNKS).some((chunk) => chunk.test(url));

interface Traffic {
  /** Script addresses in the order they were asked for. */
  scripts: string[];
  /** API calls (`GET /v1/permissions`, the tenant id as {tenantId}), requests and answers, and script requests (their address), in the order they happened. */
  events: { kind: 'request' | 'answer' | 'script'; call: string }[];
}

/** Records what the page asks for from here on. */
function recordTraffic(page: Page, tenantId: string): Traffic {
  const traffic: Traffic = { scripts: [], events: [] };
  const callOf = (method: string, url: string) =>
    `${method} ${new URL(url).pathname.replaceAll(tenantId, '{tenantId}')}`;
  const isApi = (url: string) => /^\/(api|v1)\//.test(new URL(url).pathname);
  page.on('request', (request) => {
    if (request.url().endsWith('.js')) {
      traffic.scripts.push(request.url());
      traffic.events.push({ kind: 'script', call: request.url() });
    }
    if (isApi(request.url())) traffic.events.push({ kind: 'request', call: callOf(request.method(), request.url()) });
  });
  page.on('response', (response) => {
    if (isApi(response.url()))
      traffic.events.push({ kind: 'answer', call: callOf(response.request().method(), response.url()) });
  });
  return traffic;
}

/** A copy of what was recorded so far. */
function snapshot(traffic: Traffic): Traffic {
  return { scripts: [...traffic.scripts], events: [...traffic.events] };
}

describe('the work units list as the first screen', () => {
  /** The operator's list in a context of its own (an empty cache), up to its first row. */
  async function openFirstScreen(): Promise<{ page: Page; traffic: Traffic; beforeRow: Traffic }> {
    const operator = await sessionOf(browser, 'operator');
    // At least one row for the default view (New incidents of the user's tenant).
    await createWorkUnit(operator);
    const page = await signedInPage(browser, 'operator', { ownContext: true });
    const traffic = recordTraffic(page, homeTenantId(operator));
    await page.goto(`/${homeTenantId(operator)}/workunitsv2`);
    await page.locator('.MuiDataGrid-row').first().waitFor();
    return { page, traffic, beforeRow: snapshot(traffic) };
  }

  test('paints its first row without the panels’ code: the edit form, date pickers, form library, intake and bulk dialogs load when first opened', async () => {
    const { page, traffic, beforeRow } = await openFirstScreen();
    expect(beforeRow.scripts.filter(isPanelChunk)).toEqual([]);
    // Nor the schema library (the list reads its address, its values and the tenant's custom fields
    // without it), the date pickers' date library (the list's dates are written with Intl), the MUI
    // components only panels use, the toasts' host (it loads with the first toast), or the sign-in
    // library (a live stored sign-in needs it only to renew the token or to sign out).
    expect(
      beforeRow.scripts.filter((url) =>
        /\/assets\/(zod|dayjs|mui-material-panels|toast-host|oidc|oidc-bridge)-[\w-]+\.js$/.test(url),
      ),
    ).toEqual([]);

    // A row opens the panel: its form, the date pickers and the form library arrive then.
    await page.locator('.MuiDataGrid-row').first().locator('[data-field="workUnitId"]').click();
    await drawer(page)
      .getByRole('heading', { name: /^Edit Work Unit #\d+: / })
      .waitFor();
    for (const chunk of [PANEL_CHUNKS.panel, PANEL_CHUNKS.datePickers, PANEL_CHUNKS.formLibrary])
      expect(traffic.scripts.some((url) => chunk.test(url))).toBe(true);
    await drawer(page).getByRole('button', { name: 'Close', exact: true }).click();
    await drawer(page).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('menuitem', { name: 'Intake' }).click();
    // The intake panel opens with its tenant selection panel over it: close both.
    await drawer(page).getByRole('heading', { name: 'Select Tenant' }).waitFor();
    expect(traffic.scripts.some((url) => PANEL_CHUNKS.intake.test(url))).toBe(true);
    await drawer(page).getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('heading', { name: 'Select Tenant' }).waitFor({ state: 'hidden' });
    await drawer(page).getByRole('button', { name: 'Close', exact: true }).click();
    await drawer(page).waitFor({ state: 'detached' });

    await checkRow(page.locator('.MuiDataGrid-row').first());
    await page.getByRole('toolbar', { name: 'Selected rows' }).getByRole('button', { name: 'Change State' }).click();
    await page.getByRole('dialog', { name: 'Change State' }).waitFor();
    expect(traffic.scripts.some((url) => PANEL_CHUNKS.bulkDialogs.test(url))).toBe(true);
  });

  test('the user’s first move on the page asks for its panels’ code, so that a row’s panel opens without waiting for it', async () => {
    const { page, traffic } = await openFirstScreen();
    const panelCode = [PANEL_CHUNKS.panel, PANEL_CHUNKS.datePickers, PANEL_CHUNKS.formLibrary];
    // Nothing of it while nobody moves: a visit that opens no panel never loads it.
    await page.waitForLoadState('networkidle');
    expect(traffic.scripts.filter(isPanelChunk)).toEqual([]);
    await page.mouse.move(600, 400);
    await expect.poll(() => panelCode.every((chunk) => traffic.scripts.some((url) => chunk.test(url)))).toBe(true);
    const before = traffic.scripts.length;
    await page.locator('.MuiDataGrid-row').first().locator('[data-field="workUnitId"]').click();
    await drawer(page)
      .getByRole('heading', { name: /^Edit Work Unit #\d+: / })
      .waitFor();
    expect(traffic.scripts.slice(before).filter((url) => panelCode.some((chunk) => chunk.test(url)))).toEqual([]);
  });

  test('asks for the opened page’s own scripts while the app’s scripts download: with the app’s entry held back, the list’s page and the grid arrive all the same', async () => {
    const operator = await sessionOf(browser, 'operator');
    const page = await signedInPage(browser, 'operator', { ownContext: true });
    const traffic = recordTraffic(page, homeTenantId(operator));
    // The app's entry never arrives, so nothing of the app (its router) runs.
    await page.route(/\/assets\/index-[\w-]+\.js$/, () => undefined);
    await page.goto(`/${homeTenantId(operator)}/workunitsv2`, { waitUntil: 'commit' });
    const pageCode = [
      /\/assets\/work-units-page-[\w-]+\.js$/,
      /\/assets\/data-grid-[\w-]+\.js$/,
      /\/assets\/shell-layout-[\w-]+\.js$/,
    ];
    await expect
      .poll(() => pageCode.filter((chunk) => !traffic.scripts.some((url) => chunk.test(url))).map(String))
      .toEqual([]);
    // Only that page's: no other page's, and none of its panels'.
    expect(traffic.scripts.filter((url) => /\/assets\/(devices|rules|blocks)-page-[\w-]+\.js$/.test(url))).toEqual([]);
    expect(traffic.scripts.filter(isPanelChunk)).toEqual([]);
  });

  test('asks for the sign-in configuration and the session’s start while the scripts download, then the page’s calls: 8 calls before the first row', async () => {
    const { beforeRow } = await openFirstScreen();
    const requests = beforeRow.events.filter((event) => event.kind === 'request').map((event) => event.call);
    expect([...requests].sort()).toEqual(
      [
        'GET /api/generalLookup/oidcclientconfig',
        // The session's start: permissions, the user, tenants, subscriptions, environment and version in one.
        'GET /v1/session',
        // The shell: the tenant > subscription picker asks again as it mounts (spec 000 §7), the profile photo.
        'GET /api/generallookup/subscriptions',
        'GET /api/auth/currentUserPhoto',
        // The page: saved views, the Create menu's types, the tenant's custom columns and the list.
        'GET /v1/savedviews/workunits',
        'GET /api/generallookup/workunittypes',
        'GET /v1/tenants({tenantId})',
        'GET /v1/workunits',
      ].sort(),
    );
    // The configuration goes first, then the session's start, sent by the page's early script
    // before the app's own code has run, and only then the page's scripts.
    expect(requests.slice(0, 2)).toEqual(['GET /api/generalLookup/oidcclientconfig', 'GET /v1/session']);
    const sessionSent = beforeRow.events.findIndex((event) => event.call === 'GET /v1/session');
    const gridAsked = beforeRow.events.findIndex(
      (event) => event.kind === 'script' && /\/assets\/data-grid-[\w-]+\.js$/.test(event.call),
    );
    expect(gridAsked).toBeGreaterThan(sessionSent);
  });
});

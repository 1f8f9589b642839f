import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LIST_COUNT_CAP } from '@cfs/contracts/constants';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import { browser, createTenant, portalDatabase, sessionOf, signedInPage } from './support';

/**
 * Paging a long list in the work units grid: Next and Previous go by the list's continuation
 * tokens, the rows are the right ones each way, and a count past the server's cap reads "of more
 * than 10,000". The test's tenant gets more units than the cap in one statement on the portal's
 * database: ten thousand calls to the API would take minutes and prove nothing more here.
 */

const UNITS = LIST_COUNT_CAP + 25;

/** The titles the grid shows, top to bottom. */
const titles = (page: Page) => page.locator('.MuiDataGrid-row [data-field="title"]').allTextContents();
const pager = (page: Page) => page.locator('.MuiTablePagination-displayedRows');
const unit = (n: number) => `Deep unit ${String(n).padStart(5, '0')}`;
const units = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => unit(from + index));

describe('paging deep into a long list', () => {
  let tenantId: string;

  beforeAll(async () => {
    const admin = await sessionOf(browser, 'admin');
    ({ tenantId } = await createTenant(admin));
    const db = await portalDatabase();
    try {
      // Newest first is unit 1, 2, 3…: the grid's default order (severity, then created descending).
      await db.query(
        `INSERT INTO work_unit (tenant_id, work_unit_type_id, title, severity_id, state_id, created, modified)
         SELECT $1::uuid, $2, 'Deep unit ' || lpad(g::text, 5, '0'), 2, $3, timestamptz '2026-06-01' - g * interval '1 minute', now()
         FROM generate_series(1, $4::int) AS g`,
        [tenantId, WORK_UNIT_TYPES.Incident, WORK_UNIT_STATES.New, UNITS],
      );
    } finally {
      await db.end();
    }
  }, 120_000);
  afterAll(() => browser?.close());

  test('Next and Previous show the right pages by continuation tokens, under "of more than 10,000"', async () => {
    const page = await signedInPage(browser, 'admin');
    const lists: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/v1/workunits')) lists.push(url);
    });
    await page.goto(`/${tenantId}/workunitsv2`);
    await expect.poll(() => titles(page), { timeout: 15_000 }).toEqual(units(1, 10));
    await expect
      .poll(() => pager(page).textContent(), { timeout: 15_000 })
      .toBe(`1–10 of more than ${LIST_COUNT_CAP.toLocaleString('en-US')}`);

    const step = async (button: 'Go to next page' | 'Go to previous page', from: number) => {
      await page.getByRole('button', { name: button }).click();
      await expect.poll(() => titles(page), { timeout: 15_000 }).toEqual(units(from, from + 9));
      await expect
        .poll(() => pager(page).textContent(), { timeout: 15_000 })
        .toBe(`${from.toLocaleString('en-US')}–${from + 9} of more than 10,000`);
    };
    await step('Go to next page', 11);
    await step('Go to next page', 21);
    // Back by the token kept for page 2 (or its answer, still fresh), then to page 1, which needs none.
    await step('Go to previous page', 11);
    await step('Go to previous page', 1);
    await step('Go to next page', 11);

    const tokens = lists.map((url) => url.searchParams.get('$skiptoken')).filter((token) => token !== null);
    expect(new Set(tokens).size, 'pages 2 and 3 were asked for by their tokens').toBe(2);
    expect(lists.every((url) => url.searchParams.has('$skiptoken') !== url.searchParams.has('$skip'))).toBe(true);
    expect(
      lists.filter((url) => url.searchParams.has('$skip')).every((url) => url.searchParams.get('$skip') === '0'),
      'no page but the first by $skip',
    ).toBe(true);
  }, 60_000);
});

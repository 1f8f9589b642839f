import type { Request, Response } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { WORK_UNITS_POLL_MS } from '@cfs/contracts/constants';
import {
  awaitLater,
  browser,
  createWorkUnit,
  gridRow,
  pauseClock,
  runClockUntil,
  sessionOf,
  signedInPage,
  uniqueName,
  updateWorkUnit,
} from './support';

/**
 * A grid's polling revalidates the answer it holds: while nothing the list reads has changed the
 * server answers 304 Not Modified (no list query) and the grid keeps showing its rows; a change
 * made meanwhile is shown on the next poll.
 */

function isListAnswer(response: Response): boolean {
  const url = new URL(response.url());
  return response.request().method() === 'GET' && url.pathname === '/v1/workunits' && url.searchParams.has('$count');
}

function isListRequest(request: Request): boolean {
  const url = new URL(request.url());
  return request.method() === 'GET' && url.pathname === '/v1/workunits' && url.searchParams.has('$count');
}

describe('polled grids', () => {
  test('a poll with nothing changed is answered 304 and keeps the rows; a change made through the API shows on the next poll', async () => {
    const operator = await sessionOf(browser, 'operator');
    const title = uniqueName('E2E polled');
    const unit = await createWorkUnit(operator, { title });
    const page = await signedInPage(browser, 'operator', { clock: true });
    // The polls themselves are under test: without the live stream (refused), the list polls.
    await page.route('**/v1/live?*', (route) => route.abort());
    await page.goto(`/workunitsv2?search=${encodeURIComponent(JSON.stringify({ search: title }))}`);
    await gridRow(page, title).waitFor();
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (isListAnswer(response)) statuses.push(response.status());
    });
    await pauseClock(page);

    const polled = awaitLater(page.waitForResponse(isListAnswer));
    await page.clock.runFor(WORK_UNITS_POLL_MS);
    expect((await polled).status()).toBe(304);
    const again = awaitLater(page.waitForResponse(isListAnswer));
    await page.clock.runFor(WORK_UNITS_POLL_MS);
    expect((await again).status()).toBe(304);
    expect(statuses).toEqual([304, 304]);
    await gridRow(page, title).waitFor();

    await updateWorkUnit(operator, unit.workUnitId, { title: `${title} changed` });
    const changed = awaitLater(page.waitForResponse(isListAnswer));
    await page.clock.runFor(WORK_UNITS_POLL_MS);
    expect((await changed).status()).toBe(200);
    // The grid lays out its new rows on the page's (paused) timers.
    await runClockUntil(page, () => gridRow(page, `${title} changed`).isVisible(), { maxMs: 5000 });
    expect(statuses).toEqual([304, 304, 200]);
  });

  test('after the page sends a write, its lists are fetched in full, not revalidated: an instance that has not yet seen the write cannot answer its author 304', async () => {
    const operator = await sessionOf(browser, 'operator');
    const title = uniqueName('E2E written');
    await createWorkUnit(operator, { title });
    const page = await signedInPage(browser, 'operator', { clock: true });
    // The polls themselves are under test: without the live stream (refused), the list polls.
    await page.route('**/v1/live?*', (route) => route.abort());
    await page.goto(`/workunitsv2?search=${encodeURIComponent(JSON.stringify({ search: title }))}`);
    await gridRow(page, title).waitFor();
    await pauseClock(page);

    const polled = awaitLater(page.waitForRequest(isListRequest));
    await page.clock.runFor(WORK_UNITS_POLL_MS);
    expect((await polled).headers()['if-none-match']).toMatch(/^W\//);

    // "(ack)" writes the unit (Acknowledged, assigned to the operator); the list is then asked for again.
    const written = awaitLater(page.waitForResponse((response) => response.request().method() === 'PATCH'));
    const refetched = awaitLater(page.waitForRequest(isListRequest));
    await gridRow(page, title).getByText('(ack)').click();
    expect((await written).ok()).toBe(true);
    // Asked again after the save, or at the latest by the next poll.
    let sent: Request | undefined;
    void refetched.then((request) => (sent = request));
    await runClockUntil(page, async () => sent !== undefined, { maxMs: WORK_UNITS_POLL_MS });
    expect(sent?.headers()['if-none-match']).toBeUndefined();
  });
});

import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { DEMO } from '../../server/src/db/demo-ids.js';
import type { BenchPortal } from './bench-portal.js';
import type { RecordFigure } from './fleet.js';
import { launchBrowser, median, signIn } from './front-end.js';

/**
 * Packet → tile: a packet POSTed through the API until its block's tile in Chromium shows its
 * value, on the operator's Blocks screen with the tab's live stream, against the same screen with
 * the stream refused (the 10 s poll it falls back to, as every screen did before), in turns.
 */
export async function liveTile(portal: BenchPortal, record: RecordFigure, options: { rounds: number }): Promise<void> {
  const admin = await portal.token('admin');
  const call = async (method: 'PUT', url: string, payload: object) => {
    const answer = await portal.app.inject({ method, url, headers: { authorization: `Bearer ${admin}` }, payload });
    if (answer.statusCode !== 200) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
    return answer.json<Record<string, unknown>>();
  };
  const token = String(
    (await call('PUT', '/v1/tokens', { tenantId: DEMO.contoso, name: 'Bench tiles', lifetimeYears: 1 })).generatedToken,
  );
  const post = async (entityId: string, value: number) => {
    const response = await fetch(`${portal.address}/v1/packets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entityId, timestamp: new Date().toISOString(), message: { Value: value } }),
    });
    if (!response.ok) throw new Error(`POST /v1/packets: ${response.status}`);
  };

  const browser = await launchBrowser();
  try {
    const { storageState } = await signIn(browser, portal.publicUrl, 'operator');
    /** The Blocks screen with a tile of its own; `live` false refuses the stream. */
    const screen = async (live: boolean) => {
      const entityId = randomUUID();
      const name = `Bench tile ${live ? 'live' : 'polled'} ${entityId.slice(0, 6)}`;
      await call('PUT', '/v1/blocks', {
        blockId: entityId,
        subscriptionId: DEMO.contosoProduction,
        name,
        blockTypeId: 2,
      });
      await post(entityId, 0);
      const context = await browser.newContext({ storageState, viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      if (!live) await page.route('**/v1/live?*', (route) => route.abort());
      const opened = live
        ? page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/live')
        : undefined;
      await page.goto(`${portal.publicUrl}/${DEMO.contoso}/blocks`);
      await shows(page, name, '0');
      await opened;
      // The stream's opening asks the tiles once more: that answer is in before the rounds begin.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return { page, entityId, name, close: () => context.close() };
    };
    /** Resolves in the frame the tile named `name` shows `text` (checked every frame). */
    const shows = (page: Page, name: string, text: string) =>
      page.waitForFunction(
        // Runs in the page (a function, not a string: the portal's CSP allows no eval).
        ([tileName, shown]: [string, string]) => {
          interface Element {
            getAttribute(name: string): string | null;
            querySelector(selector: string): { textContent: string | null } | null;
          }
          const { document } = globalThis as unknown as {
            document: { querySelectorAll(selector: string): Iterable<Element> };
          };
          return [...document.querySelectorAll('[data-testid="block-tile"]')].some(
            (tile) =>
              tile.getAttribute('aria-label') === tileName &&
              tile.querySelector('[data-testid="block-value"]')?.textContent === shown,
          );
        },
        [name, text] as [string, string],
        { timeout: 60_000, polling: 'raf' },
      );
    const screens = { live: await screen(true), polled: await screen(false) };
    const times = { live: [] as number[], polled: [] as number[] };
    try {
      for (let round = 1; round <= options.rounds; round++) {
        const order = round % 2 === 1 ? (['live', 'polled'] as const) : (['polled', 'live'] as const);
        for (const way of order) {
          const { page, entityId, name } = screens[way];
          const started = performance.now();
          const shown = shows(page, name, String(round));
          await post(entityId, round);
          await shown;
          times[way].push(performance.now() - started);
        }
      }
    } finally {
      await screens.live.close();
      await screens.polled.close();
    }
    record({
      name: `packet → its tile in Chromium, Blocks screen (median of ${options.rounds})`,
      value: median(times.live),
      unit: 'ms',
      baselineName: 'the same screen polling every 10 s (the live stream refused)',
      baseline: median(times.polled),
    });
  } finally {
    await browser.close();
  }
}

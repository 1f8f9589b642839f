import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connect } from '../src/db/database.js';
import { openRuntime } from '../src/runtime.js';
import { DEMO } from '../src/db/demo-ids.js';
import { MAX_FILTER_CONDITIONS } from '../src/odata/list-query-filter.js';
import { createTestPortal, type TestPortal } from './harness.js';

/*
 * One tenant's costly list request must not starve the others: a filter of hundreds of terms is
 * refused outright, and a request that still runs too long is stopped by the statement timeout.
 */
const TIMEOUT_MS = 300;
let portal: TestPortal;

beforeAll(async () => {
  portal = await createTestPortal({ DB_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) });
  // 100,000 Contoso work units, so that a search over many text columns that no index serves takes
  // well over the timeout (loaded on a connection of the test's own, which has no timeout).
  const loader = connect(portal.config.databaseUrl ?? '', 1);
  await sql`
    INSERT INTO work_unit (tenant_id, work_unit_type_id, title, description, severity_id, state_id, created_by, modified_by)
    SELECT ${DEMO.contoso}::uuid, 1, 'Load ' || n || ' ' || md5(n::text), repeat(md5(n::text), 8), 1 + n % 4, 1, 'load', 'load'
    FROM generate_series(1, 100000) AS n`.execute(loader);
  await sql`ANALYZE work_unit`.execute(loader);
  await loader.destroy();
}, 120_000);
afterAll(async () => {
  await portal?.close();
});

// Two-character terms that no row holds (the data is hex and 'Load'): they hold no trigram, so no
// index serves them and every row is read.
const term = (i: number) => `${'zqyxwvutsr'[Math.floor(i / 10) % 10]}${i % 10}`;
const terms = (count: number) =>
  Array.from({ length: count }, (_, i) => `contains(description,'${term(i)}') or contains(title,'${term(i)}')`).join(
    ' or ',
  );

describe('the cost of one request', () => {
  test('a list query is cancelled on the server when its caller goes away', async () => {
    // The same database behind an instance with a long timeout, listening on a port, as in production.
    const config = loadConfig({
      ...process.env,
      DATA_DIR: portal.config.dataDir,
      PUBLIC_URL: portal.config.publicUrl,
      LOG_LEVEL: 'silent',
      DATABASE_URL: portal.config.databaseUrl ?? '',
      DB_STATEMENT_TIMEOUT_MS: '60000',
    });
    const runtime = await openRuntime(config);
    const app = await buildApp({
      ...runtime,
      ...(runtime.provider ? { provider: runtime.provider } : {}),
      logger: false,
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const filter = terms(30);
      const controller = new AbortController();
      const request = fetch(`${address}/v1/workunits?$count=true&$filter=${encodeURIComponent(filter)}`, {
        headers: { authorization: `Bearer ${await portal.token('operator')}` },
        signal: controller.signal,
      }).catch(() => 'aborted');
      // A list statement that its caller can cancel starts with its mark (db/cancellable.ts); the
      // page's text is longer than the server shows of it, so its ILIKE may not be in sight.
      const running = () =>
        sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND datname = current_database() AND starts_with(query, '/* cancellable ') AND pid <> pg_backend_pid()`
          .execute(portal.db)
          .then((result) => result.rows[0]?.n ?? 0);
      const deadline = Date.now() + 10_000;
      while ((await running()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await running()).toBeGreaterThan(0);
      controller.abort();
      expect(await request).toBe('aborted');
      const stopBy = Date.now() + 3000;
      while ((await running()) > 0 && Date.now() < stopBy) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await running()).toBe(0);
    } finally {
      await app.close();
      await runtime.closeDatabase();
    }
  }, 30_000);

  test('a $filter of 250 terms answers 400 at once, naming the limit', async () => {
    const started = Date.now();
    const response = await portal.as('operator', {
      method: 'GET',
      url: `/v1/workunits?$count=true&$filter=${encodeURIComponent(terms(125))}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: `$filter has too many conditions (at most ${MAX_FILTER_CONDITIONS})` });
    // Refused before any query runs (the margin is for a loaded machine, not for database work).
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('a request that runs past the statement timeout answers 503, and another tenant’s requests stay fast meanwhile', async () => {
    const heavy = (async () => {
      const started = Date.now();
      const response = await portal.as('operator', {
        method: 'GET',
        url: `/v1/workunits?$count=true&$filter=${encodeURIComponent(terms(30))}`,
      });
      return { response, elapsed: Date.now() - started };
    })();
    const others: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const response = await portal.as('operator2', { method: 'GET', url: '/v1/workunits?$top=10' });
      expect(response.statusCode).toBe(200);
      others.push(Date.now() - started);
    }
    const { response, elapsed } = await heavy;
    expect(response.statusCode).toBe(503);
    expect(response.json<{ message: string }>().message).toMatch(/took too long/);
    // Stopped by the timeout, not run to its end (margin for a loaded machine).
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 2000);
    expect(Math.max(...others)).toBeLessThan(1000);
  }, 30_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startJobWorker, type JobWorker } from '../src/engines/jobs/worker.js';
import { defineTask } from '../src/engines/jobs/task.js';
import { createTestPortal, openSecondInstance, type TestPortal } from './harness.js';

const METRICS_TOKEN = 'metrics-token-for-the-scraper';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal({ METRICS_TOKEN });
});
afterAll(async () => {
  await portal?.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const readyz = async () => {
  const response = await portal.app.inject({ method: 'GET', url: '/readyz' });
  return {
    status: response.statusCode,
    body: response.json<{ status: string; checks: { database: boolean; migrations: boolean; workers: number } }>(),
  };
};

const scrape = async (authorization?: string) =>
  portal.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The value of one series in Prometheus text (`name{labels} value`), 0 when absent. */
function series(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find((row) => row.startsWith(`${name}{`) && wanted.every((label) => row.includes(label)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('readiness (GET /readyz)', () => {
  it('is not ready while no worker runs, ready once one says it is alive, and not ready after it stops', async () => {
    await portal.db.deleteFrom('worker_heartbeat').execute();
    const before = await readyz();
    expect(before).toEqual({
      status: 503,
      body: { status: 'not ready', checks: { database: true, migrations: true, workers: 0 } },
    });
    // Liveness does not depend on the workers.
    expect((await portal.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    const worker: JobWorker = startJobWorker({ db: portal.db, tasks: [], pollMs: 50, log: () => undefined });
    const ready = await until(readyz, (answer) => answer.status === 200);
    expect(ready).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: true, migrations: true, workers: 1 } },
    });

    await worker.stop();
    expect((await readyz()).status).toBe(503);
  });

  it('counts a worker that has not been heard from for 30 s as gone', async () => {
    await portal.db
      .insertInto('worker_heartbeat')
      .values({ worker_id: 'killed', host: 'elsewhere', pid: 1, seen: new Date(Date.now() - 31_000) })
      .execute();
    expect((await readyz()).body.checks.workers).toBe(0);
    await portal.db.deleteFrom('worker_heartbeat').execute();
  });
});

describe('metrics (GET /metrics)', () => {
  it('answers only a scraper holding METRICS_TOKEN', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape('Bearer not-the-metrics-token-at-all')).statusCode).toBe(401);
    // A user's access token is no metrics token.
    expect((await scrape(`Bearer ${await portal.token('admin')}`)).statusCode).toBe(401);
    const answer = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('is not served on the portal port without a token configured', async () => {
    const other = await openSecondInstance(portal, { METRICS_TOKEN: '' });
    try {
      expect((await other.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('counts requests by route pattern and status, principal cache lookups, queue depth and pool use', async () => {
    const text = async () => (await scrape(`Bearer ${METRICS_TOKEN}`)).body;
    const before = await text();
    const route = { method: 'GET', route: '/v1/tenants', status: '200' };
    for (let call = 0; call < 3; call += 1)
      expect((await portal.as('admin', { method: 'GET', url: '/v1/tenants?$top=5' })).statusCode).toBe(200);
    expect(
      (await portal.as('admin', { method: 'GET', url: '/v1/tenants/not-a-guid' })).statusCode,
    ).toBeGreaterThanOrEqual(400);

    // Jobs due and waiting: the queue's depth and age, read from the job table.
    const waiting = defineTask({ name: 'test.waiting', payload: z.object({}), perform: async () => undefined });
    await portal.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('job')
        .values(
          [0, 1].map((n) => ({
            task: waiting.name,
            key: `k${n}`,
            payload: '{}',
            max_attempts: 1,
            run_at: new Date(Date.now() - 60_000),
          })),
        )
        .execute();
    });
    const after = await text();

    expect(
      series(after, 'cfs_http_request_duration_seconds_count', route) -
        series(before, 'cfs_http_request_duration_seconds_count', route),
    ).toBe(3);
    expect(
      series(after, 'cfs_principal_cache_lookups_total', { result: 'hit' }) +
        series(after, 'cfs_principal_cache_lookups_total', { result: 'miss' }),
    ).toBeGreaterThan(
      series(before, 'cfs_principal_cache_lookups_total', { result: 'hit' }) +
        series(before, 'cfs_principal_cache_lookups_total', { result: 'miss' }),
    );
    expect(series(after, 'cfs_job_queue_depth', { task: 'test.waiting' })).toBe(2);
    expect(series(after, 'cfs_job_queue_oldest_seconds', { task: 'test.waiting' })).toBeGreaterThanOrEqual(59);
    expect(after).toMatch(/^cfs_db_pool_connections\{state="idle"\} \d+$/m);
    expect(after).toMatch(/^cfs_process_resident_memory_bytes \d+/m);
    await portal.db.deleteFrom('job').where('task', '=', waiting.name).execute();
  });
});

describe('request ids', () => {
  it('answers each request with its id, keeps a sane one the client sent, and replaces one that is not', async () => {
    const fresh = await portal.app.inject({ method: 'GET', url: '/healthz' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const sent = await portal.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'proxy-7f3a.42' },
    });
    expect(sent.headers['x-request-id']).toBe('proxy-7f3a.42');
    const forged = await portal.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'evil\nline' },
    });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('carries the request id into the jobs the request enqueues', async () => {
    const response = await portal.as('enduser', {
      method: 'PUT',
      url: '/api/v1/rc/workunits',
      headers: { 'x-request-id': 'rc-filed-1' },
      payload: {
        title: 'The printer jams',
        description: 'Every second page.',
        stakeHolderPhoneNumber: '+1 425 555 0100',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { workUnitId } = response.json<{ workUnitId: number }>();
    const job = await portal.db
      .selectFrom('job')
      .select(['request_id'])
      .where('key', '=', `resolutioncenter:ResolutionCenterCreated:${workUnitId}`)
      .executeTakeFirstOrThrow();
    expect(job.request_id).toBe('rc-filed-1');
  });
});

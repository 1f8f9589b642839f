import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { DEMO } from '../../src/db/demo-ids.js';
import { createTestPortal, type TestPortal } from '../harness.js';
import { startPrimary, startReplica, type Cluster } from '../postgres-cluster.js';

/*
 * DATABASE_READ_URL against a real streaming replica: a primary and a replica made from it with
 * pg_basebackup, both started here on loopback ports. The replica's replay is paused to show what a
 * user sees while it lags.
 */
let primary: Cluster;
let replica: Cluster;
let portal: TestPortal;

async function onReplica<T>(sql: string): Promise<T | undefined> {
  const client = new pg.Client({ connectionString: replica.url() });
  await client.connect();
  try {
    return (await client.query<{ value: T }>(sql)).rows[0]?.value;
  } finally {
    await client.end();
  }
}

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  primary = await startPrimary();
  replica = await startReplica(primary);
  portal = await createTestPortal({ DATABASE_URL: primary.url(), DATABASE_READ_URL: replica.url() });
  // The seed has reached the replica.
  await until(
    async () => (await onReplica<boolean>(`SELECT to_regclass('public.work_unit') IS NOT NULL AS value`)) === true,
  );
}, 120_000);
afterAll(async () => {
  await portal?.close();
  await replica?.stop();
  await primary?.stop();
});

const titles = async (user: string, headers: Record<string, string> = {}) => {
  const response = await portal.as(user, {
    method: 'GET',
    url: `/v1/workunits?$filter=${encodeURIComponent("contains(title,'Replica lag probe')")}`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return {
    titles: response.json<{ value: { title: string }[] }>().value.map((unit) => unit.title),
    etag: response.headers.etag,
  };
};

describe('a read replica (DATABASE_READ_URL)', () => {
  it('serves lists from the replica, a writer’s own next reads from the primary until the replica has the write', async () => {
    expect(await onReplica<boolean>('SELECT pg_is_in_recovery() AS value')).toBe(true);
    await onReplica('SELECT pg_wal_replay_pause()');

    const created = await portal.as('operator', {
      method: 'PUT',
      url: '/api/v1/workunits',
      payload: {
        workUnitId: -1,
        title: 'Replica lag probe',
        severityId: 1,
        stateId: 1,
        tenantId: DEMO.contoso,
        workUnitTypeId: WORK_UNIT_TYPES.Incident,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const position = created.headers['x-read-after'];
    expect(position).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    const cookie = String(created.headers['set-cookie']);
    expect(cookie).toMatch(/^cfs_read_after=[0-9A-F]+%2F[0-9A-F]+; Max-Age=60; Path=\/; HttpOnly; SameSite=Strict/);

    // While the replica lags: the writer sees their unit (browser cookie or API header), another
    // user does not yet, and the replica's answer carries no ETag a poll could keep past the change.
    expect((await titles('operator', { cookie: cookie.split(';')[0] ?? '' })).titles).toEqual(['Replica lag probe']);
    expect((await titles('operator', { 'x-read-after': String(position) })).titles).toEqual(['Replica lag probe']);
    const other = await titles('admin');
    expect(other.titles).toEqual([]);
    expect(other.etag).toBeUndefined();
    // The dashboard reads the replica too.
    const before = await portal.as('admin', { method: 'GET', url: `/v1/home/workunits?tenantId=${DEMO.contoso}` });
    expect(before.statusCode).toBe(200);

    // Once the replica replays, everyone sees it.
    await onReplica('SELECT pg_wal_replay_resume()');
    await until(async () => (await titles('admin')).titles.length === 1);
    expect((await titles('operator', { cookie: cookie.split(';')[0] ?? '' })).titles).toEqual(['Replica lag probe']);
  });

  it('keeps answering from the primary when the replica stops', async () => {
    await replica.stop();
    expect((await titles('admin')).titles).toEqual(['Replica lag probe']);
  });
});

import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO } from '../src/db/demo-ids.js';
import { createStaffedTenant, createSubscriptionAs, createTenantAs, createWorkUnitAs, unique } from './factories.js';
import { createTestPortal, openSecondInstance, type SecondInstance, type TestPortal } from './harness.js';

/*
 * Polled lists answered 304 Not Modified while nothing they read has changed, on two instances of
 * the portal on one database (as behind a load balancer): a change made anywhere is seen.
 */
let portal: TestPortal;
let b: SecondInstance;

beforeAll(async () => {
  portal = await createTestPortal();
  // Same database and signing keys (DATA_DIR/keys), its own process state: pool, caches, listeners.
  b = await openSecondInstance(portal);
  await Promise.all([portal.runtime.changes.whenReady(), b.runtime.changes.whenReady()]);
});
afterAll(async () => {
  await b?.close();
  await portal?.close();
});

/** Waits until both instances have read the counters after every change committed so far. */
const settled = () =>
  Promise.all([portal.runtime.changes.sync(), b.runtime.changes.sync(), portal.runtime.principals.sync()]);

/** A poll: GET with the tag of the answer held, as the web's list fetching sends it. */
async function poll(url: string, tag?: string, userName = 'admin', instance: 'A' | 'B' = 'A') {
  const options = { method: 'GET' as const, url, headers: tag ? { 'if-none-match': tag } : {} };
  return instance === 'A' ? portal.as(userName, options) : b.as(userName, options);
}

function tagOf(response: { statusCode: number; headers: Record<string, unknown> }): string {
  expect(response.statusCode).toBe(200);
  const tag = response.headers.etag;
  expect(tag).toMatch(/^W\/"[\w-]+"$/);
  return String(tag);
}

const WORK_UNITS = '/v1/workunits?$top=5&$count=true&$expand=tenant($select=tenantId,name)';

describe('polled lists', () => {
  test('answers 304 with the same tag and no body while nothing changed, on any instance', async () => {
    const first = await poll('/v1/tenants?$count=true');
    const tag = tagOf(first);
    const again = await poll('/v1/tenants?$count=true', tag);
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(tag);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('no-store');
    // Every instance holds the same counters: the tag made by one is recognised by the other.
    expect((await poll('/v1/tenants?$count=true', tag, 'admin', 'B')).statusCode).toBe(304);
    // Another query, another caller: another answer.
    expect((await poll('/v1/tenants?$count=true&$top=1', tag)).statusCode).toBe(200);
    const adminTag = tagOf(await poll(WORK_UNITS));
    expect(tagOf(await poll(WORK_UNITS, adminTag, 'operator'))).not.toBe(adminTag);
  });

  test('signs its tags with the secrets key: an instance with another key makes other tags for the same answer', async () => {
    const tag = tagOf(await poll('/v1/tenants?$count=true'));
    expect(tagOf(await poll('/v1/tenants?$count=true', undefined, 'admin', 'B'))).toBe(tag);
    // The first key stays readable (the sign-ins are sealed with it); tags are signed with the new one.
    const firstKey = (await fs.readFile(path.join(portal.config.dataDir, 'keys', 'secrets.key'), 'utf8')).trim();
    const other = await openSecondInstance(portal, {
      SECRETS_KEY: randomBytes(32).toString('base64'),
      SECRETS_PREVIOUS_KEYS: firstKey,
    });
    try {
      await other.runtime.changes.whenReady();
      const answer = await other.as('admin', { method: 'GET', url: '/v1/tenants?$count=true' });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers.etag).toMatch(/^W\/"/);
      expect(answer.headers.etag).not.toBe(tag);
    } finally {
      await other.close();
    }
  });

  test('keeps its tag when the answer travels compressed', async () => {
    const plain = tagOf(await poll(WORK_UNITS));
    const compressed = await portal.as('admin', {
      method: 'GET',
      url: WORK_UNITS,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers.etag).toBe(plain);
    const revalidated = await portal.as('admin', {
      method: 'GET',
      url: WORK_UNITS,
      headers: { 'accept-encoding': 'gzip', 'if-none-match': plain },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  test('answers 200 with a new tag after a write to the list’s table through the API', async () => {
    const { tenantId } = await createTenantAs(portal, 'admin');
    const url = `/v1/tenants?$filter=tenantId eq ${tenantId}`;
    const before = await poll(url);
    const tag = tagOf(before);
    const toggled = await portal.as('admin', { method: 'POST', url: `/v1/tenants/toggledisabled/${tenantId}` });
    expect(toggled.statusCode).toBe(200);
    // No waiting: the write's own answer waits until this instance has heard of it.
    const after = await poll(url, tag);
    expect(tagOf(after)).not.toBe(tag);
    expect(after.json<{ value: { enabled: boolean }[] }>().value[0]?.enabled).toBe(
      !before.json<{ value: { enabled: boolean }[] }>().value[0]?.enabled,
    );
  });

  test('answers 200 after a write to a table the list reads through $expand or a path', async () => {
    const tenant = await createTenantAs(portal, 'admin');
    for (let i = 0; i < 2; i += 1) await createWorkUnitAs(portal, 'admin', tenant.tenantId);
    const units = `${WORK_UNITS}&$filter=tenantId eq ${tenant.tenantId}`;
    const renamedTo = `Renamed ${unique()}`;
    const tag = tagOf(await poll(units));
    const byTenantName = `/v1/workunits?$top=5&$filter=tenant/name eq '${renamedTo}'&$count=true`;
    const filteredTag = tagOf(await poll(byTenantName));
    expect((await poll(units, tag)).statusCode).toBe(304);
    // Written past the API: only the table's change counter tells the list.
    await sql`UPDATE tenant SET name = ${renamedTo} WHERE tenant_id = ${tenant.tenantId}`.execute(portal.db);
    await settled();
    const after = await poll(units, tag);
    expect(tagOf(after)).not.toBe(tag);
    const tenants = after
      .json<{ value: { tenant: { tenantId: string; name: string } }[] }>()
      .value.map((row) => row.tenant);
    expect(tenants.map((row) => row.name)).toEqual([renamedTo, renamedTo]);
    const filtered = await poll(byTenantName, filteredTag);
    expect(tagOf(filtered)).not.toBe(filteredTag);
    expect(filtered.json<{ '@odata.count': number }>()['@odata.count']).toBe(2);
  });

  test('answers 200 after a write made through another instance', async () => {
    const url = '/v1/workunitcategories?$count=true';
    const tag = tagOf(await poll(url));
    const created = await b.as('admin', {
      method: 'PUT',
      url: '/v1/workunitcategories',
      payload: { tenantId: DEMO.contoso, name: 'Made on B', workUnitTypeId: 1 },
    });
    expect(created.statusCode).toBe(200);
    await settled();
    const after = await poll(url, tag);
    expect(tagOf(after)).not.toBe(tag);
    expect(after.json<{ value: { name: string }[] }>().value.map((row) => row.name)).toContain('Made on B');
  });

  test('answers 200 after the caller’s tenant scope changes', async () => {
    const staff = await createStaffedTenant(portal);
    await createWorkUnitAs(portal, 'admin', staff.tenantId);
    const other = await createTenantAs(portal, 'admin');
    for (let i = 0; i < 2; i += 1) await createWorkUnitAs(portal, 'admin', other.tenantId);
    const url = '/v1/workunits?$top=1&$count=true';
    const before = await poll(url, undefined, staff.userName);
    const tag = tagOf(before);
    expect(before.json<{ '@odata.count': number }>()['@odata.count']).toBe(1);
    await sql`INSERT INTO user_tenant (user_id, tenant_id) SELECT user_id, ${other.tenantId}::uuid FROM app_user WHERE user_name = ${staff.userName}`.execute(
      portal.db,
    );
    await settled();
    const after = await poll(url, tag, staff.userName);
    expect(tagOf(after)).not.toBe(tag);
    expect(after.json<{ '@odata.count': number }>()['@odata.count']).toBe(3);
  });

  test('answers a table whose counter is switched off or gone by its query, untagged, and keeps the other lists’ tags', async () => {
    const url = '/v1/subscriptions?$count=true';
    const other = '/v1/tenants?$count=true';
    const otherTag = tagOf(await poll(other));
    const untagged = async () => {
      await settled();
      const response = await poll(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers.etag).toBeUndefined();
      expect((await poll(other, otherTag)).statusCode).toBe(304);
    };
    try {
      // A disabled trigger no longer counts the table's writes: its counter cannot be trusted.
      await sql`ALTER TABLE subscription DISABLE TRIGGER count_change`.execute(portal.db);
      await untagged();
      await sql`ALTER TABLE subscription ENABLE TRIGGER count_change`.execute(portal.db);
      await settled();
      tagOf(await poll(url));
      // A counter whose sequence is gone leaves its table out of the reading, not the reading out.
      await sql`ALTER SEQUENCE change_counter_subscription RENAME TO change_counter_subscription_gone`.execute(
        portal.db,
      );
      await untagged();
    } finally {
      await sql`ALTER TABLE subscription ENABLE TRIGGER count_change`.execute(portal.db);
      await sql`ALTER SEQUENCE IF EXISTS change_counter_subscription_gone RENAME TO change_counter_subscription`.execute(
        portal.db,
      );
    }
    await settled();
    tagOf(await poll(url));
  });

  test('runs the query, untagged, while the counters cannot be read, and answers 304 again once they can', async () => {
    const url = '/v1/subscriptions?$count=true';
    const { subscriptionId } = await createSubscriptionAs(portal, 'admin', DEMO.contoso);
    const tag = tagOf(await poll(url));
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cfs-change-counters' AND datname = current_database()`.execute(
      portal.db,
    );
    // A change while the counters are not read: the reading on reconnection counts it.
    await sql`UPDATE subscription SET name = name || ' (moved)' WHERE subscription_id = ${subscriptionId}`.execute(
      portal.db,
    );
    await expect.poll(() => portal.runtime.changes.ready).toBe(false);
    const down = await poll(url, tag);
    expect(down.statusCode).toBe(200);
    expect(down.headers.etag).toBeUndefined();
    expect(
      down
        .json<{ value: { name: string }[] }>()
        .value.map((row) => row.name)
        .some((name) => name.endsWith(' (moved)')),
    ).toBe(true);
    await portal.runtime.changes.whenReady();
    expect((await poll(url, tag)).statusCode).toBe(200);
    const fresh = tagOf(await poll(url));
    expect((await poll(url, fresh)).statusCode).toBe(304);
  });
});

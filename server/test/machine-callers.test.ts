import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authenticateMachine, generateDeviceCredential } from '../src/auth/machine-callers.js';
import { PrincipalCache } from '../src/auth/principal-cache.js';
import { systemPrincipal } from '../src/auth/system-principal.js';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import type { DB } from '../src/db/schema.js';
import { compileOnly } from './compile-only.js';
import { createTokenAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal.close();
});

/** A device of Contoso enrolled with a fresh tenant token, holding a credential of its own. */
async function enrolledDevice() {
  const token = await createTokenAs(portal, 'admin', DEMO.contoso);
  const { credential, hash } = generateDeviceCredential();
  const device = await scoped(portal.db, ALL_TENANTS)
    .insertInto('device', {
      tenant_id: DEMO.contoso,
      subscription_id: DEMO.contosoProduction,
      name: `host-${Math.random().toString(36).slice(2, 8)}`,
      credential_hash: hash,
      token_grant_id: token.tokenGrantId,
    })
    .returning('device_id')
    .executeTakeFirstOrThrow();
  return { token, credential, deviceId: device.device_id };
}

async function setDevice(
  deviceId: string,
  values: { enabled?: boolean; is_deleted?: boolean; credential_hash?: string; last_contact?: Date },
) {
  await scoped(portal.db, ALL_TENANTS).updateTable('device').set(values).where('device_id', '=', deviceId).execute();
}

describe('machine callers', () => {
  test('a device credential speaks for its own device, in its tenant only', async () => {
    const { credential, deviceId } = await enrolledDevice();
    const result = await authenticateMachine(portal.db, credential);
    expect(result).toMatchObject({
      ok: true,
      caller: {
        kind: 'device',
        deviceId,
        tenantId: DEMO.contoso,
        subscriptionId: DEMO.contosoProduction,
        scope: { kind: 'some', tenantIds: [DEMO.contoso] },
      },
    });
  });

  test('a tenant token speaks for its tenant', async () => {
    const token = await createTokenAs(portal, 'admin', DEMO.fabrikam);
    const result = await authenticateMachine(portal.db, token.generatedToken);
    expect(result).toMatchObject({
      ok: true,
      caller: { kind: 'token', tenantId: DEMO.fabrikam, tokenGrantId: token.tokenGrantId },
    });
  });

  test('refuses an unknown or malformed credential', async () => {
    expect(await authenticateMachine(portal.db, generateDeviceCredential().credential)).toEqual({
      ok: false,
      message: 'The device credential is not valid.',
    });
    expect(await authenticateMachine(portal.db, 'cfsd_short')).toEqual({
      ok: false,
      message: 'The device credential is not valid.',
    });
    expect(await authenticateMachine(portal.db, 'cfs_nottoken')).toEqual({
      ok: false,
      message: 'The token is not valid.',
    });
  });

  test('stops a device that is disabled or deleted', async () => {
    const disabled = await enrolledDevice();
    await setDevice(disabled.deviceId, { enabled: false });
    expect(await authenticateMachine(portal.db, disabled.credential)).toEqual({
      ok: false,
      message: 'This device is disabled.',
    });

    const deleted = await enrolledDevice();
    await setDevice(deleted.deviceId, { is_deleted: true });
    expect(await authenticateMachine(portal.db, deleted.credential)).toEqual({
      ok: false,
      message: 'The device credential is not valid.',
    });
  });

  test('stops a device whose enrolment token is revoked, and the token itself', async () => {
    const { token, credential } = await enrolledDevice();
    const revoked = await portal.as('admin', { method: 'PUT', url: `/v1/tokens/${token.tokenGrantId}/revoke` });
    expect(revoked.statusCode).toBe(200);
    expect(await authenticateMachine(portal.db, credential)).toEqual({
      ok: false,
      message: 'The token this device enrolled with has been revoked.',
    });
    expect(await authenticateMachine(portal.db, token.generatedToken)).toEqual({
      ok: false,
      message: 'The token has been revoked.',
    });
  });
});

describe('machine callers, cached', () => {
  let cache: PrincipalCache;
  beforeAll(async () => {
    // A cache listening on a connection of its own, as another instance of the portal would.
    cache = new PrincipalCache();
    await cache.listen(portal.config.databaseUrl!);
  });
  afterAll(async () => {
    await cache.close();
  });
  /** A database handle that answers nothing: a caller found through it was found in the cache. */
  const noDatabase = compileOnly<DB>();

  test('keeps an accepted credential, so its next call reads nothing; a refused one is not kept', async () => {
    const { credential, token, deviceId } = await enrolledDevice();
    expect(await authenticateMachine(noDatabase, credential, cache)).toMatchObject({ ok: false });
    const first = await authenticateMachine(portal.db, credential, cache);
    expect(first).toMatchObject({ ok: true, caller: { kind: 'device' } });
    expect(await authenticateMachine(noDatabase, credential, cache)).toEqual(first);
    await authenticateMachine(portal.db, token.generatedToken, cache);
    expect(await authenticateMachine(noDatabase, token.generatedToken, cache)).toMatchObject({
      ok: true,
      caller: { kind: 'token', tokenGrantId: token.tokenGrantId },
    });
    // A device's report changes nothing of what its credential speaks for: it stays kept.
    await setDevice(deviceId, { last_contact: new Date() });
    await cache.sync();
    expect(await authenticateMachine(noDatabase, credential, cache)).toEqual(first);
  });

  test('drops a cached device at once when it is disabled, deleted or given a new credential', async () => {
    for (const change of [
      { enabled: false },
      { is_deleted: true },
      { credential_hash: generateDeviceCredential().hash },
    ]) {
      const { credential, deviceId } = await enrolledDevice();
      expect(await authenticateMachine(portal.db, credential, cache)).toMatchObject({ ok: true });
      await setDevice(deviceId, change);
      await cache.sync();
      expect(await authenticateMachine(noDatabase, credential, cache), JSON.stringify(change)).toMatchObject({
        ok: false,
      });
      expect(await authenticateMachine(portal.db, credential, cache), JSON.stringify(change)).toMatchObject({
        ok: false,
      });
    }
  });

  test('drops a cached token, and every device enrolled with it, at once when the token is revoked', async () => {
    const { token, credential } = await enrolledDevice();
    await authenticateMachine(portal.db, credential, cache);
    await authenticateMachine(portal.db, token.generatedToken, cache);
    const revoked = await portal.as('admin', { method: 'PUT', url: `/v1/tokens/${token.tokenGrantId}/revoke` });
    expect(revoked.statusCode).toBe(200);
    await cache.sync();
    expect(await authenticateMachine(portal.db, credential, cache)).toEqual({
      ok: false,
      message: 'The token this device enrolled with has been revoked.',
    });
    expect(await authenticateMachine(portal.db, token.generatedToken, cache)).toEqual({
      ok: false,
      message: 'The token has been revoked.',
    });
  });

  test('drops every cached caller of a tenant that is disabled', async () => {
    const { credential } = await enrolledDevice();
    await authenticateMachine(portal.db, credential, cache);
    await scoped(portal.db, ALL_TENANTS)
      .updateTable('tenant')
      .set({ enabled: false })
      .where('tenant_id', '=', DEMO.contoso)
      .execute();
    try {
      await cache.sync();
      expect(await authenticateMachine(portal.db, credential, cache)).toEqual({
        ok: false,
        message: 'The tenant of this device is disabled.',
      });
    } finally {
      await scoped(portal.db, ALL_TENANTS)
        .updateTable('tenant')
        .set({ enabled: true })
        .where('tenant_id', '=', DEMO.contoso)
        .execute();
    }
  });

  test("keeps no person's principal read before an announcement arrived, as it keeps no such machine", async () => {
    const people = new PrincipalCache();
    await people.listen(portal.config.databaseUrl!);
    try {
      const principal = systemPrincipal(DEMO.contoso, { id: randomUUID(), name: 'Someone' });
      const claims = { sub: principal.userId, exp: Math.floor(Date.now() / 1000) + 600 };
      const before = people.mark();
      people.invalidate(`user:${principal.userId}`);
      people.set('token', claims, principal, undefined, before);
      expect(people.get('token')).toBeUndefined();
      people.set('token', claims, principal, undefined, people.mark());
      expect(people.get('token')?.principal).toEqual(principal);
    } finally {
      await people.close();
    }
  });

  test('keeps a caller no longer than its token is valid, nor longer than its time to live', async () => {
    let now = Date.now();
    const timed = new PrincipalCache({ ttlMs: 60_000, now: () => now });
    const caller = {
      kind: 'token',
      tenantId: DEMO.contoso,
      tokenGrantId: randomUUID(),
      scope: { kind: 'some', tenantIds: [DEMO.contoso] },
    } as const;
    // Not listening, it keeps nothing: it could not hear of a revocation.
    timed.setMachine('expiring', caller, now + 5_000, timed.mark());
    expect(timed.getMachine('expiring')).toBeUndefined();
    await timed.listen(portal.config.databaseUrl!);
    try {
      // Read before an announcement came, a caller is not kept: it may be what the announcement ended.
      const before = timed.mark();
      timed.invalidate(`token:${caller.tokenGrantId}`);
      timed.setMachine('expiring', caller, now + 5_000, before);
      expect(timed.getMachine('expiring')).toBeUndefined();
      timed.setMachine('expiring', caller, now + 5_000, timed.mark());
      timed.setMachine('lasting', caller, undefined, timed.mark());
      now += 4_000;
      expect(timed.getMachine('expiring')).toEqual(caller);
      now += 2_000;
      expect(timed.getMachine('expiring')).toBeUndefined();
      expect(timed.getMachine('lasting')).toEqual(caller);
      now += 60_000;
      expect(timed.getMachine('lasting')).toBeUndefined();
    } finally {
      await timed.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authenticateMachine, generateDeviceCredential } from '../src/auth/machine-callers.js';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
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

async function setDevice(deviceId: string, values: { enabled?: boolean; is_deleted?: boolean }) {
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

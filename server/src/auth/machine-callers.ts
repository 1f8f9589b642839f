import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import { scoped } from '../db/scoped.js';
import { authenticateToken } from './api-tokens.js';
import type { PrincipalCache } from './principal-cache.js';
import { ALL_TENANTS, type TenantScope } from './tenant-scope.js';

/**
 * Callers that are machines, not people: a device agent with its own credential, or a script or
 * an enrolling agent with a tenant API token. Routes declare `permission: { machine: [...] }` and read the
 * caller with `machineOf(request)`.
 *
 * A device credential is `cfsd_` + 43 base64url characters (256 random bits), handed to the agent
 * once, when its device is promoted; only its SHA-256 is stored. It speaks for one device only, and
 * stops working when the device is disabled or deleted, when the tenant token the device enrolled
 * with is revoked or expires, or when the tenant is disabled.
 */
export type MachineCaller =
  | { kind: 'token'; tenantId: string; tokenGrantId: string; scope: TenantScope }
  | {
      kind: 'device';
      tenantId: string;
      deviceId: string;
      subscriptionId: string;
      tokenGrantId: string | null;
      scope: TenantScope;
    };

export type MachineRejection = { ok: false; message: string };

const DEVICE_PREFIX = 'cfsd_';
const DEVICE_CREDENTIAL = /^cfsd_[A-Za-z0-9_-]{43}$/;

/** Whether a bearer credential is a device's (else it is taken for a tenant API token). */
export function isDeviceCredential(raw: string): boolean {
  return raw.startsWith(DEVICE_PREFIX);
}

export function hashCredential(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** A new device credential and the hash to store. */
export function generateDeviceCredential(): { credential: string; hash: string } {
  const credential = `${DEVICE_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { credential, hash: hashCredential(credential) };
}

const TOKEN_MESSAGES = {
  malformed: 'The token is not valid.',
  unknown: 'The token is not valid.',
  revoked: 'The token has been revoked.',
  expired: 'The token has expired.',
  'tenant-disabled': 'The tenant of this token is disabled.',
} as const;

/** An accepted machine caller, and until when its token is valid (null: no end). */
type Accepted = { ok: true; caller: MachineCaller; validUntil: Date | null };

/**
 * Who a machine's bearer credential speaks for, or why it is refused. An accepted credential is
 * kept in `cache` (by its SHA-256), which drops it as soon as the database announces a change to
 * its token, its device or its tenant; a refusal is never kept.
 */
export async function authenticateMachine(
  db: Db,
  raw: string,
  cache?: PrincipalCache,
  now = new Date(),
): Promise<{ ok: true; caller: MachineCaller } | MachineRejection> {
  const hash = hashCredential(raw);
  const cached = cache?.getMachine(hash);
  if (cached) return { ok: true, caller: cached };
  const mark = cache?.mark() ?? 0;
  const found = isDeviceCredential(raw)
    ? await authenticateDevice(db, raw, now)
    : await authenticateTenantToken(db, raw, now);
  if (!found.ok) return found;
  cache?.setMachine(hash, found.caller, found.validUntil?.getTime(), mark);
  return { ok: true, caller: found.caller };
}

async function authenticateTenantToken(db: Db, raw: string, now: Date): Promise<Accepted | MachineRejection> {
  const token = await authenticateToken(db, raw, now);
  if (!token.ok) return { ok: false, message: TOKEN_MESSAGES[token.reason] };
  return {
    ok: true,
    caller: {
      kind: 'token',
      tenantId: token.tenantId,
      tokenGrantId: token.tokenGrantId,
      scope: { kind: 'some', tenantIds: [token.tenantId] },
    },
    validUntil: token.expiresOn,
  };
}

async function authenticateDevice(db: Db, raw: string, now: Date): Promise<Accepted | MachineRejection> {
  if (!DEVICE_CREDENTIAL.test(raw)) return { ok: false, message: 'The device credential is not valid.' };
  // Before the credential is known there is no caller and so no scope: the credential names its device.
  const device = await scoped(db, ALL_TENANTS)
    .selectFrom('device')
    .innerJoin('tenant', 'tenant.tenant_id', 'device.tenant_id')
    .leftJoin('token_grant', 'token_grant.token_grant_id', 'device.token_grant_id')
    .select([
      'device.device_id',
      'device.tenant_id',
      'device.subscription_id',
      'device.enabled',
      'device.is_deleted',
      'device.token_grant_id',
      'token_grant.revoked_on',
      'token_grant.expires_on',
      'tenant.enabled as tenant_enabled',
    ])
    .where('device.credential_hash', '=', hashCredential(raw))
    .executeTakeFirst();
  if (!device || device.is_deleted) return { ok: false, message: 'The device credential is not valid.' };
  if (!device.enabled) return { ok: false, message: 'This device is disabled.' };
  if (device.revoked_on) return { ok: false, message: 'The token this device enrolled with has been revoked.' };
  if (device.expires_on && device.expires_on.getTime() <= now.getTime())
    return { ok: false, message: 'The token this device enrolled with has expired.' };
  if (!device.tenant_enabled) return { ok: false, message: 'The tenant of this device is disabled.' };
  return {
    ok: true,
    caller: {
      kind: 'device',
      tenantId: device.tenant_id,
      deviceId: device.device_id,
      subscriptionId: device.subscription_id,
      tokenGrantId: device.token_grant_id,
      scope: { kind: 'some', tenantIds: [device.tenant_id] },
    },
    validUntil: device.expires_on,
  };
}

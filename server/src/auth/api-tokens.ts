import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import { scoped } from '../db/scoped.js';
import { ALL_TENANTS } from './tenant-scope.js';

/**
 * API tokens for machines (device agents, scripts): `cfs_` + 40 random base62 characters + a
 * 6-character base62 CRC-32 of them. The prefix makes a leaked token easy to recognise and the
 * checksum lets a scanner (or this server, before touching the database) reject look-alikes.
 * Only the SHA-256 of a token is stored; the token is shown once, when it is created.
 */
const PREFIX = 'cfs_';
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TOKEN_PATTERN = new RegExp(`^${PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, length: number): string {
  let out = '';
  for (let rest = value; out.length < length; rest = Math.floor(rest / 62)) out = ALPHABET[rest % 62] + out;
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it are dropped so every character is equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new token, its hash for storage, and the short prefix shown to tell tokens apart. */
export function generateApiToken(): { token: string; hash: string; prefix: string } {
  const body = randomBase62(BODY_LENGTH);
  const token = `${PREFIX}${body}${base62(crc32(body), CHECKSUM_LENGTH)}`;
  return { token, hash: hashToken(token), prefix: token.slice(0, PREFIX.length + 6) };
}

/** Whether a text has the token's shape and a matching checksum (no database needed). */
export function isWellFormedToken(raw: string): boolean {
  if (!TOKEN_PATTERN.test(raw)) return false;
  const body = raw.slice(PREFIX.length, PREFIX.length + BODY_LENGTH);
  return raw.slice(PREFIX.length + BODY_LENGTH) === base62(crc32(body), CHECKSUM_LENGTH);
}

export type TokenRejection = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'tenant-disabled';
export type TokenAuthentication =
  { ok: true; tenantId: string; tokenGrantId: string; expiresOn: Date | null } | { ok: false; reason: TokenRejection };

/**
 * Who a machine's token speaks for. Rejects malformed, unknown, revoked and expired tokens and
 * tokens of a disabled tenant. The lookup is by the SHA-256 of the token (an index): the timing
 * of that lookup says something about a hash, nothing about a token.
 */
export async function authenticateToken(db: Db, raw: string, now = new Date()): Promise<TokenAuthentication> {
  if (!isWellFormedToken(raw)) return { ok: false, reason: 'malformed' };
  const hash = hashToken(raw);
  // Before a token is known there is no caller and so no scope: the token itself names its tenant.
  const grant = await scoped(db, ALL_TENANTS)
    .selectFrom('token_grant')
    .innerJoin('tenant', 'tenant.tenant_id', 'token_grant.tenant_id')
    .select([
      'token_grant.token_grant_id',
      'token_grant.tenant_id',
      'token_grant.expires_on',
      'token_grant.revoked_on',
      'tenant.enabled',
    ])
    .where('token_grant.token_hash', '=', hash)
    .executeTakeFirst();
  if (!grant) return { ok: false, reason: 'unknown' };
  if (grant.revoked_on) return { ok: false, reason: 'revoked' };
  if (grant.expires_on && grant.expires_on.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  if (!grant.enabled) return { ok: false, reason: 'tenant-disabled' };
  return { ok: true, tenantId: grant.tenant_id, tokenGrantId: grant.token_grant_id, expiresOn: grant.expires_on };
}

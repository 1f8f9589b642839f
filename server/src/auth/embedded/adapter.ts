import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db } from '../../db/database.js';
import { z } from 'zod';
import { defineTask } from '../../engines/jobs/task.js';

/**
 * How a sign-in record's id (a refresh token, a session cookie, a grant id…) is stored: a SHA-256,
 * as API tokens are. Whoever reads the table learns no token that could be presented.
 */
export function hashPayloadId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

const sealedSchema = z.object({ sealed: z.string(), key: z.string() });

/**
 * Keeps the identity provider's sessions, grants, codes and tokens in the database, so they
 * survive restarts and are shared by every instance. Every id is stored hashed and every payload
 * (which repeats its id, and holds the grant's claims) sealed with the secrets key, so a dump of
 * the database cannot be turned into a sign-in.
 */
export function createAdapterFactory(db: Db, box: SecretBox): (name: string) => Adapter {
  const seal = (payload: AdapterPayload) => {
    const { keyId, ciphertext } = box.encrypt(JSON.stringify(payload));
    return JSON.stringify({ sealed: ciphertext, key: keyId });
  };
  const open = (stored: unknown): AdapterPayload => {
    const { sealed, key } = sealedSchema.parse(stored);
    return JSON.parse(box.decrypt(key, sealed)) as AdapterPayload;
  };
  const hashed = (value: string | undefined) => (value === undefined ? null : hashPayloadId(value));
  return (type: string) => ({
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const row = {
        id: hashPayloadId(id),
        type,
        payload: seal(payload),
        grant_id: hashed(payload.grantId),
        user_code: hashed(payload.userCode),
        uid: hashed(payload.uid),
        expires_at: expiresAt,
      };
      await db
        .insertInto('oidc_payload')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['type', 'id']).doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id,
            user_code: row.user_code,
            uid: row.uid,
            expires_at: row.expires_at,
          }),
        )
        .execute();
    },
    async find(id: string) {
      return findWhere(db, open, type, sql`id = ${hashPayloadId(id)}`);
    },
    async findByUserCode(userCode: string) {
      return findWhere(db, open, type, sql`user_code = ${hashPayloadId(userCode)}`);
    },
    async findByUid(uid: string) {
      return findWhere(db, open, type, sql`uid = ${hashPayloadId(uid)}`);
    },
    /**
     * Spends a one-time record (a code, a refresh token) once only. The provider checks that it
     * is unspent before it spends it; two requests presenting it at the same moment both pass that
     * check, so the spending itself decides: the request that finds it spent already presented a
     * used token, which is theft (OAuth 2.0 Security BCP §4.14), and ends the whole sign-in.
     */
    async consume(id: string) {
      const spent = await db
        .updateTable('oidc_payload')
        .set({ consumed_at: new Date() })
        .where('type', '=', type)
        .where('id', '=', hashPayloadId(id))
        .where('consumed_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (spent) return;
      const record = await db
        .selectFrom('oidc_payload')
        .select('grant_id')
        .where('type', '=', type)
        .where('id', '=', hashPayloadId(id))
        .executeTakeFirst();
      // Its grant's records, and the grant itself (stored under its own id, with no grant_id).
      const grantId = record?.grant_id;
      if (grantId) {
        await db
          .deleteFrom('oidc_payload')
          .where((eb) =>
            eb.or([eb('grant_id', '=', grantId), eb.and([eb('type', '=', 'Grant'), eb('id', '=', grantId)])]),
          )
          .execute();
      }
      throw new errors.InvalidGrant(`${type === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`);
    },
    async destroy(id: string) {
      await db.deleteFrom('oidc_payload').where('type', '=', type).where('id', '=', hashPayloadId(id)).execute();
    },
    async revokeByGrantId(grantId: string) {
      await db.deleteFrom('oidc_payload').where('grant_id', '=', hashPayloadId(grantId)).execute();
    },
  });
}

async function findWhere(
  db: Db,
  open: (stored: unknown) => AdapterPayload,
  type: string,
  condition: ReturnType<typeof sql>,
): Promise<AdapterPayload | undefined> {
  const result = await sql<{ payload: unknown; consumed_at: Date | null }>`
    SELECT payload, consumed_at FROM oidc_payload
    WHERE type = ${type} AND ${condition} AND (expires_at IS NULL OR expires_at > now())`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  // A record sealed in another way (an earlier version's plain text) is treated as absent: sign in again.
  let payload: AdapterPayload;
  try {
    payload = open(row.payload);
  } catch {
    return undefined;
  }
  return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
}

/**
 * Seals every sign-in record again with the current key (`npm run secrets:rotate`), so that
 * dropping the previous key from SECRETS_PREVIOUS_KEYS ends no one's sign-in. A record that no
 * configured key opens is already treated as absent and is left as it is; a record the provider
 * rewrote meanwhile (its sealed text changed) keeps the provider's version. Returns how many.
 */
export async function resealSignInRecords(db: Db, box: SecretBox): Promise<number> {
  const rows = await db
    .selectFrom('oidc_payload')
    .select(['type', 'id', 'payload'])
    .where(sql<string>`payload->>'key'`, '<>', box.keyId)
    .execute();
  let count = 0;
  for (const row of rows) {
    const stored = sealedSchema.safeParse(row.payload);
    if (!stored.success) continue;
    let plaintext: string;
    try {
      plaintext = box.decrypt(stored.data.key, stored.data.sealed);
    } catch {
      continue;
    }
    const { keyId, ciphertext } = box.encrypt(plaintext);
    const result = await db
      .updateTable('oidc_payload')
      .set({ payload: JSON.stringify({ sealed: ciphertext, key: keyId }) })
      .where('type', '=', row.type)
      .where('id', '=', row.id)
      .where(sql<string>`payload->>'sealed'`, '=', stored.data.sealed)
      .executeTakeFirst();
    count += Number(result.numUpdatedRows);
  }
  return count;
}

/** Housekeeping: expired sign-in records go every 15 minutes. */
export const deleteExpiredSignInRecords = defineTask({
  name: 'housekeeping.expired-sign-in-records',
  payload: z.object({}),
  every: 15 * 60_000,
  perform: async (_payload, { db }) => void (await deleteExpiredPayloads(db)),
});

export async function deleteExpiredPayloads(db: Db): Promise<number> {
  const result = await db.deleteFrom('oidc_payload').where('expires_at', '<', new Date()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

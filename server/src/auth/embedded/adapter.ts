import { sql } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/database.js';
import { z } from 'zod';
import { defineTask } from '../../engines/jobs/task.js';

/**
 * Keeps the identity provider's sessions, grants, codes and tokens in the database, so they
 * survive restarts and are shared by every instance.
 */
export function createAdapterFactory(db: Db): (name: string) => Adapter {
  return (type: string) => ({
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const row = {
        id,
        type,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
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
      return findWhere(db, type, sql`id = ${id}`);
    },
    async findByUserCode(userCode: string) {
      return findWhere(db, type, sql`user_code = ${userCode}`);
    },
    async findByUid(uid: string) {
      return findWhere(db, type, sql`uid = ${uid}`);
    },
    async consume(id: string) {
      await db.updateTable('oidc_payload').set({ consumed_at: new Date() }).where('type', '=', type).where('id', '=', id).execute();
    },
    async destroy(id: string) {
      await db.deleteFrom('oidc_payload').where('type', '=', type).where('id', '=', id).execute();
    },
    async revokeByGrantId(grantId: string) {
      await db.deleteFrom('oidc_payload').where('grant_id', '=', grantId).execute();
    },
  });
}

async function findWhere(db: Db, type: string, condition: ReturnType<typeof sql>): Promise<AdapterPayload | undefined> {
  const result = await sql<{ payload: AdapterPayload; consumed_at: Date | null }>`
    SELECT payload, consumed_at FROM oidc_payload
    WHERE type = ${type} AND ${condition} AND (expires_at IS NULL OR expires_at > now())`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
}

/** Expired rows are of no use to anyone; the worker calls this periodically. */
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

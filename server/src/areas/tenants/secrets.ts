import type { Selectable } from 'kysely';
import type { TenantSecret, TenantSecretValue } from '@cfs/contracts/tenants';
import { recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { NotFoundError } from '../../http/errors.js';
import { findTenantRow } from './queries.js';

const present = (row: Selectable<Database['tenant_secret']>): TenantSecret => ({
  secretId: row.secret_id,
  tenantId: row.tenant_id,
  name: row.name,
  latestVersion: row.latest_version,
  created: row.created,
  modified: row.modified,
  modifiedBy: row.modified_by,
});

/** The tenant's secrets by name; values never appear here. */
export async function listSecrets(db: Db, user: Principal, tenantId: string): Promise<TenantSecret[]> {
  await findTenantRow(db, user.tenantScope, tenantId);
  const rows = await scoped(db, user.tenantScope)
    .selectFrom('tenant_secret')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('name')
    .execute();
  return rows.map(present);
}

async function addVersion(
  db: ScopedDb<Tx>,
  box: SecretBox,
  user: Principal,
  secret: Selectable<Database['tenant_secret']>,
  value: string,
): Promise<TenantSecret> {
  const version = secret.latest_version + 1;
  const { keyId, ciphertext } = box.encrypt(value);
  await db.executor
    .insertInto('tenant_secret_version')
    .values({ secret_id: secret.secret_id, version, key_id: keyId, ciphertext, created_by: user.userName })
    .execute();
  const row = await db
    .updateTable('tenant_secret')
    .set({ latest_version: version, modified: new Date(), modified_by: user.userName })
    .where('secret_id', '=', secret.secret_id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(db.executor, user, {
    entityType: 'tenantSecret',
    entityId: secret.secret_id,
    tenantId: secret.tenant_id,
    action: 'set-value',
    changes: { name: secret.name, version },
  });
  return present(row);
}

/** PUT v1/tenants/{id}/secrets: a new secret, or a new version of the secret of that name. */
export async function putSecret(
  db: Db,
  box: SecretBox,
  user: Principal,
  tenantId: string,
  name: string,
  value: string,
): Promise<TenantSecret> {
  await findTenantRow(db, user.tenantScope, tenantId);
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    await tx
      .insertInto('tenant_secret', { tenant_id: tenantId, name, modified_by: user.userName })
      .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
      .execute();
    const secret = await tx
      .selectFrom('tenant_secret')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('name', '=', name)
      .forUpdate()
      .executeTakeFirstOrThrow();
    return addVersion(tx, box, user, secret, value);
  });
}

async function lockSecret(db: ScopedDb<Tx>, tenantId: string, secretId: string) {
  const secret = await db
    .selectFrom('tenant_secret')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('secret_id', '=', secretId)
    .forUpdate()
    .executeTakeFirst();
  if (!secret) throw new NotFoundError('The secret');
  return secret;
}

/** POST v1/tenants/{id}/secrets/{secretId}: a new version; the latest is what actions use. */
export async function setSecretValue(
  db: Db,
  box: SecretBox,
  user: Principal,
  tenantId: string,
  secretId: string,
  value: string,
): Promise<TenantSecret> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    return addVersion(tx, box, user, await lockSecret(tx, tenantId, secretId), value);
  });
}

/** GET v1/tenants/{id}/secrets/{secretId}/versions/latest: the value, recorded in the audit trail. */
export async function readLatestSecret(
  db: Db,
  box: SecretBox,
  user: Principal,
  tenantId: string,
  secretId: string,
): Promise<TenantSecretValue> {
  const row = await scoped(db, user.tenantScope)
    .selectFrom('tenant_secret as s')
    .innerJoin('tenant_secret_version as v', (join) =>
      join.onRef('v.secret_id', '=', 's.secret_id').onRef('v.version', '=', 's.latest_version'),
    )
    .select(['s.secret_id', 's.name', 'v.version', 'v.key_id', 'v.ciphertext', 'v.created'])
    .where('s.tenant_id', '=', tenantId)
    .where('s.secret_id', '=', secretId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('The secret');
  const value = box.decrypt(row.key_id, row.ciphertext);
  await db.transaction().execute((trx) =>
    recordAudit(trx, user, {
      entityType: 'tenantSecret',
      entityId: secretId,
      tenantId,
      action: 'read-secret',
      changes: { name: row.name, version: row.version },
    }),
  );
  return { secretId: row.secret_id, name: row.name, version: row.version, value, created: row.created };
}

export async function deleteSecret(db: Db, user: Principal, tenantId: string, secretId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const secret = await lockSecret(tx, tenantId, secretId);
    await tx.deleteFrom('tenant_secret').where('secret_id', '=', secretId).execute();
    await recordAudit(trx, user, {
      entityType: 'tenantSecret',
      entityId: secretId,
      tenantId,
      action: 'delete',
      changes: { name: secret.name },
    });
  });
}

/** Re-encrypts every version with the current key (after SECRETS_KEY changed); returns how many. */
export async function reencryptSecrets(db: Db, box: SecretBox): Promise<number> {
  const rows = await db
    .selectFrom('tenant_secret_version')
    .select(['secret_id', 'version', 'key_id', 'ciphertext'])
    .where('key_id', '<>', box.keyId)
    .execute();
  for (const row of rows) {
    const { keyId, ciphertext } = box.encrypt(box.decrypt(row.key_id, row.ciphertext));
    await db
      .updateTable('tenant_secret_version')
      .set({ key_id: keyId, ciphertext })
      .where('secret_id', '=', row.secret_id)
      .where('version', '=', row.version)
      .execute();
  }
  return rows.length;
}

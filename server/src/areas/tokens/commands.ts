import { TENANT_DISABLED_MESSAGE } from '@cfs/contracts/tenants';
import type { GeneratedToken, TokenCreate, TokenGrant, TokenUpdate } from '@cfs/contracts/tokens';
import { changedFields, entityAudit } from '../../audit/audit.js';
import { generateApiToken } from '../../auth/api-tokens.js';
import type { Principal } from '../../auth/principal.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import type { Db, Tx } from '../../db/database.js';
import { BadRequestError, NotFoundError, orNotFound } from '../../http/errors.js';
import { tokenEntity } from './resource.js';

/** Records an action on a token in the change history, in the write's transaction. */
const recordChange = entityAudit(
  'tokenGrant',
  (row: { token_grant_id: string; tenant_id: string | null }) => row.token_grant_id,
);

/** The columns a create and an edit write: a description left out is none. */
const written = (input: TokenUpdate) =>
  tokenEntity.writeColumns({ name: input.name, description: input.description ?? null });

/** Expiry N years after creation; lifetime 0 is Forever (spec 001 §9). */
export function expiryFor(created: Date, lifetimeYears: number): Date | null {
  if (lifetimeYears === 0) return null;
  const expires = new Date(created);
  expires.setUTCFullYear(expires.getUTCFullYear() + lifetimeYears);
  return expires;
}

/** PUT v1/tokens: the grant and, this once, the token itself. */
export async function createToken(db: Db, user: Principal, input: TokenCreate): Promise<GeneratedToken> {
  const tenant = await scoped(db, user.tenantScope).tenantState(input.tenantId);
  if (tenant === 'missing') throw new NotFoundError('The tenant');
  if (tenant === 'disabled')
    throw new BadRequestError(TENANT_DISABLED_MESSAGE, { tenantId: [TENANT_DISABLED_MESSAGE] });
  const { token, hash, prefix } = generateApiToken();
  const created = new Date();
  return db.transaction().execute(async (trx) => {
    const row = await scoped(trx, user.tenantScope)
      .insertInto('token_grant', {
        ...written(input),
        tenant_id: input.tenantId,
        lifetime_years: input.lifetimeYears,
        token_hash: hash,
        token_prefix: prefix,
        created,
        created_by: user.userName,
        modified_by: user.userName,
        expires_on: expiryFor(created, input.lifetimeYears),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordChange(trx, user, row, 'create', { name: row.name, lifetimeYears: row.lifetime_years });
    return { ...tokenEntity.present(row), generatedToken: token };
  });
}

async function lockGrant(tx: ScopedDb<Tx>, tokenGrantId: string) {
  return orNotFound(
    await tx
      .selectFrom('token_grant')
      .selectAll()
      .where('token_grant_id', '=', tokenGrantId)
      .forUpdate()
      .executeTakeFirst(),
    'The token',
  );
}

/** POST v1/tokens/{id}: name and description; the token and its lifetime stay as they are. */
export async function updateToken(
  db: Db,
  user: Principal,
  tokenGrantId: string,
  input: TokenUpdate,
): Promise<TokenGrant> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = await lockGrant(tx, tokenGrantId);
    const row = await tx
      .updateTable('token_grant')
      .set({
        ...written(input),
        modified: new Date(),
        modified_by: user.userName,
      })
      .where('token_grant_id', '=', tokenGrantId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const changes = changedFields(
      { name: before.name, description: before.description },
      { name: row.name, description: row.description },
    );
    await recordChange(trx, user, row, 'update', changes);
    return tokenEntity.present(row);
  });
}

/** PUT v1/tokens/{id}/revoke: refused from now on; revoking twice keeps the first date. */
export async function revokeToken(db: Db, user: Principal, tokenGrantId: string): Promise<TokenGrant> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = await lockGrant(tx, tokenGrantId);
    if (before.revoked_on) return tokenEntity.present(before);
    const row = await tx
      .updateTable('token_grant')
      .set({ revoked_on: new Date(), revoked_by: user.userName, modified: new Date(), modified_by: user.userName })
      .where('token_grant_id', '=', tokenGrantId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordChange(trx, user, row, 'revoke', { revokedOn: row.revoked_on });
    return tokenEntity.present(row);
  });
}

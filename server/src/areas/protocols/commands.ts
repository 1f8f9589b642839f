import { sql, type Selectable } from 'kysely';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import type { Protocol, ProtocolValues } from '@cfs/contracts/protocols';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { changedFields, entityAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import { ALL_TENANTS, type TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { protocolStepWriter } from '../../engines/protocols/step-writer.js';
import { BadRequestError, HttpError, orNotFound } from '../../http/errors.js';
import { protocolEntity } from './resource.js';

/** Records an action on a protocol in the change history, in the write's transaction. */
const recordChange = entityAudit('protocol', (row: { protocol_id: number; tenant_id: string | null }) =>
  String(row.protocol_id),
);

type ProtocolRow = Selectable<Database['protocol']>;

/** A tenantless protocol is every tenant's: one tenant's staff may follow it but not change it (as shared rules). */
function assertMayWriteTenant(user: Principal, tenantId: string | null): void {
  if (tenantId === null && user.tenantScope.kind !== 'all')
    throw new HttpError(403, AUTOMATION_MESSAGES.tenantlessRefused);
}

async function assertTenant(tx: ScopedDb<Tx>, user: Principal, tenantId: string | null): Promise<void> {
  assertMayWriteTenant(user, tenantId);
  if (tenantId !== null && !(await tx.hasTenant(tenantId)))
    throw new BadRequestError(AUTOMATION_MESSAGES.protocolSaveFailed, { tenantId: ['Please choose a tenant.'] });
}

/** The protocol, locked for the write: 404 outside the caller's tenants, 403 when it is every tenant's and the caller is not. */
export async function lockProtocol(tx: ScopedDb<Tx>, user: Principal, protocolId: number): Promise<ProtocolRow> {
  const row = orNotFound(
    await tx.selectFrom('protocol').selectAll().where('protocol_id', '=', protocolId).forUpdate().executeTakeFirst(),
    'The protocol',
  );
  assertMayWriteTenant(user, row.tenant_id);
  return row;
}

export async function findProtocol(db: Db, scope: TenantScope, protocolId: number): Promise<Protocol> {
  const row = await scoped(db, scope)
    .selectFrom('protocol')
    .selectAll()
    .where('protocol_id', '=', protocolId)
    .executeTakeFirst();
  return protocolEntity.present(orNotFound(row, 'The protocol'));
}

export async function createProtocol(db: Db, user: Principal, input: ProtocolValues): Promise<Protocol> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    await assertTenant(tx, user, input.tenantId);
    const row = await tx
      .insertInto('protocol', {
        ...protocolEntity.writeColumns(input),
        created_by: user.userName,
        modified_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordChange(trx, user, row, 'create', { name: row.name, timerInverval: input.timerInverval });
    return protocolEntity.present(row);
  });
}

/**
 * A protocol given to one tenant must not hold another tenant's actions nor be followed by another
 * tenant's units (read across tenants: only the yes or no leaves here). Its steps take its tenant.
 */
export async function updateProtocol(
  db: Db,
  user: Principal,
  protocolId: number,
  input: ProtocolValues,
): Promise<Protocol> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const locked = await lockProtocol(tx, user, protocolId);
    await assertTenant(tx, user, input.tenantId);
    if (input.tenantId !== null && input.tenantId !== locked.tenant_id) {
      const all = scoped(trx, ALL_TENANTS);
      const foreignAction = await all
        .selectFrom('protocol_action as pa')
        .innerJoin('action_definition as ad', 'ad.action_definition_id', 'pa.action_definition_id')
        .select('pa.protocol_action_id')
        .where('pa.protocol_id', '=', protocolId)
        .where('ad.tenant_id', 'is not', null)
        .where('ad.tenant_id', '<>', input.tenantId)
        .limit(1)
        .executeTakeFirst();
      if (foreignAction)
        throw new BadRequestError(AUTOMATION_MESSAGES.protocolSaveFailed, {
          tenantId: [AUTOMATION_MESSAGES.protocolOfOtherTenant],
        });
      const foreignUnit = await all
        .selectFrom('work_unit')
        .select('work_unit_id')
        .where('protocol_id', '=', protocolId)
        .where('tenant_id', '<>', input.tenantId)
        .limit(1)
        .executeTakeFirst();
      if (foreignUnit)
        throw new BadRequestError(AUTOMATION_MESSAGES.protocolSaveFailed, {
          tenantId: ['Work units of other tenants follow this protocol.'],
        });
    }
    const before = protocolEntity.present(locked);
    const row = await tx
      .updateTable('protocol')
      .set({ ...protocolEntity.writeColumns(input), modified: new Date(), modified_by: user.userName })
      .where('protocol_id', '=', protocolId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (row.tenant_id !== locked.tenant_id) await protocolStepWriter().moveToTenant(trx, protocolId, row.tenant_id);
    const after = protocolEntity.present(row);
    const { modified: _modified, modifiedBy: _modifiedBy, ...changes } = changedFields(before, after);
    await recordChange(
      trx,
      user,
      { protocol_id: protocolId, tenant_id: row.tenant_id ?? locked.tenant_id },
      'update',
      changes,
    );
    return after;
  });
}

/** DELETE v1/protocols/{id}: its steps go with it; its units stay, following no protocol (the foreign key sets null). */
export async function deleteProtocol(db: Db, user: Principal, protocolId: number): Promise<{ message: string }> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const locked = await lockProtocol(tx, user, protocolId);
    await tx.deleteFrom('protocol').where('protocol_id', '=', protocolId).execute();
    await recordChange(trx, user, locked, 'delete', { name: locked.name });
    return { message: 'Protocol deleted successfully.' };
  });
}

/**
 * GET v1/protocols/GetMatchedRules(id=) (the Assigned Rules tab): the caller's rules whose match or
 * expiration actions create a work unit following this protocol (Create Work Unit with
 * Parameters.ProtocolId = id, written as text or as a number).
 */
export async function findMatchedRules(
  db: Db,
  scope: TenantScope,
  protocolId: number,
): Promise<{ value: { ruleId: string; name: string; enabled: boolean }[]; count: number }> {
  await findProtocol(db, scope, protocolId);
  const wanted = (value: string | number) =>
    JSON.stringify([{ ActionDefinitionId: BUILT_IN_ACTIONS.createWorkUnit.id, Parameters: { ProtocolId: value } }]);
  const rows = await scoped(db, scope)
    .selectFrom('rule')
    .select(['rule_id', 'name', 'enabled'])
    .where((eb) =>
      eb.or([
        eb(sql`match_actions`, '@>', sql`${wanted(String(protocolId))}::jsonb`),
        eb(sql`match_actions`, '@>', sql`${wanted(protocolId)}::jsonb`),
        eb(sql`expiration_actions`, '@>', sql`${wanted(String(protocolId))}::jsonb`),
        eb(sql`expiration_actions`, '@>', sql`${wanted(protocolId)}::jsonb`),
      ]),
    )
    .orderBy('name')
    .orderBy('rule_id')
    .limit(1000)
    .execute();
  const value = rows.map((row) => ({ ruleId: row.rule_id, name: row.name, enabled: row.enabled }));
  return { value, count: value.length };
}

/** GET v1/protocols/GetProtocolsForAction(actionDefinitionId=): the caller's protocols with a step running the action (the catalogue's delete lists them). */
export async function findProtocolsForAction(
  db: Db,
  scope: TenantScope,
  actionDefinitionId: string,
): Promise<{ protocolId: number; name: string }[]> {
  const rows = await scoped(db, scope)
    .selectFrom('protocol')
    .select(['protocol_id', 'name'])
    .where(
      'protocol_id',
      'in',
      scoped(db, scope)
        .selectFrom('protocol_action')
        .select('protocol_id')
        .where('action_definition_id', '=', actionDefinitionId),
    )
    .orderBy('name')
    .orderBy('protocol_id')
    .limit(1000)
    .execute();
  return rows.map((row) => ({ protocolId: row.protocol_id, name: row.name }));
}

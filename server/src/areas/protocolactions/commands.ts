import type { Selectable } from 'kysely';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import { PROTOCOL_ACTION_TYPES, type ProtocolAction, type ProtocolActionValues } from '@cfs/contracts/protocols';
import { parameterNames } from '@cfs/contracts/action-definitions';
import { changedFields, entityAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { BadRequestError, HttpError, orNotFound } from '../../http/errors.js';
import { protocolActionEntity } from './resource.js';

/** Records an action on a protocol action in the change history, in the write's transaction. */
const recordChange = entityAudit(
  'protocolAction',
  (row: { protocol_action_id: string; tenant_id: string | null }) => row.protocol_action_id,
);

type StepRow = Selectable<Database['protocol_action']>;
interface DefinitionRef {
  action_definition_id: string;
  name: string;
  description: string | null;
  input_parameters: string | null;
}

/** A step as the API shows it: with the action it runs (`actionDefinition`) when that is given. */
const presentProtocolAction = (row: StepRow, definition?: DefinitionRef): ProtocolAction => ({
  ...protocolActionEntity.present(row),
  ...(definition
    ? {
        actionDefinition: {
          actionDefinitionId: definition.action_definition_id,
          name: definition.name,
          description: definition.description,
          inputParameters: definition.input_parameters,
        },
      }
    : {}),
});

/** Only a user of all tenants changes what every tenant shares (a tenantless protocol's steps). */
function assertMayWriteTenant(user: Principal, tenantId: string | null): void {
  if (tenantId === null && user.tenantScope.kind !== 'all')
    throw new HttpError(403, AUTOMATION_MESSAGES.tenantlessRefused);
}

/**
 * The checks the schema cannot make (spec 002 §4 "Protocol action save", §5 Protocol action): the
 * protocol is the caller's, the action exists, may run in a protocol (PROTOCOL_ACTION_TYPES) and is
 * the protocol's tenant's or shared; only the parameters the action names are kept. The step
 * carries its protocol's tenant.
 */
async function stepColumns(tx: ScopedDb<Tx>, user: Principal, input: ProtocolActionValues) {
  const protocol = orNotFound(
    await tx
      .selectFrom('protocol')
      .select(['protocol_id', 'tenant_id'])
      .where('protocol_id', '=', input.protocolId)
      .forUpdate()
      .executeTakeFirst(),
    'The protocol',
  );
  assertMayWriteTenant(user, protocol.tenant_id);
  const definition = await tx
    .selectFrom('action_definition')
    .select([
      'action_definition_id',
      'name',
      'description',
      'input_parameters',
      'action_definition_type_id',
      'tenant_id',
    ])
    .where('action_definition_id', '=', input.actionDefinitionId)
    .executeTakeFirst();
  const refuse = (text: string) =>
    new BadRequestError(AUTOMATION_MESSAGES.actionSaveFailed, { actionDefinitionId: [text] });
  if (!definition) throw refuse(AUTOMATION_MESSAGES.actionRequired);
  if (!PROTOCOL_ACTION_TYPES.includes(definition.action_definition_type_id))
    throw refuse(AUTOMATION_MESSAGES.actionNotForProtocols);
  if (definition.tenant_id !== null && definition.tenant_id !== protocol.tenant_id)
    throw refuse(AUTOMATION_MESSAGES.protocolOfOtherTenant);
  const named = new Set(parameterNames(definition.input_parameters));
  const parameters = Object.fromEntries(Object.entries(input.parameters).filter(([name]) => named.has(name)));
  return {
    definition,
    columns: { ...protocolActionEntity.writeColumns({ ...input, parameters }), tenant_id: protocol.tenant_id },
  };
}

async function lockStep(tx: ScopedDb<Tx>, user: Principal, protocolActionId: string): Promise<StepRow> {
  const row = orNotFound(
    await tx
      .selectFrom('protocol_action')
      .selectAll()
      .where('protocol_action_id', '=', protocolActionId)
      .forUpdate()
      .executeTakeFirst(),
    'The protocol action',
  );
  assertMayWriteTenant(user, row.tenant_id);
  return row;
}

const audited = (step: ProtocolAction) => ({
  protocolId: step.protocolId,
  actionDefinitionId: step.actionDefinitionId,
  workUnitEventTypeId: step.workUnitEventTypeId,
  parameters: step.parameters,
  sequence: step.sequence,
  summary: step.summary,
  runAutomatically: step.runAutomatically,
  repeatable: step.repeatable,
});

export async function findProtocolAction(
  db: Db,
  scope: TenantScope,
  protocolActionId: string,
): Promise<ProtocolAction> {
  const row = orNotFound(
    await scoped(db, scope)
      .selectFrom('protocol_action')
      .selectAll()
      .where('protocol_action_id', '=', protocolActionId)
      .executeTakeFirst(),
    'The protocol action',
  );
  const definition = await scoped(db, scope)
    .selectFrom('action_definition')
    .select(['action_definition_id', 'name', 'description', 'input_parameters'])
    .where('action_definition_id', '=', row.action_definition_id)
    .executeTakeFirst();
  return presentProtocolAction(row, definition);
}

export async function createProtocolAction(
  db: Db,
  user: Principal,
  input: ProtocolActionValues,
): Promise<ProtocolAction> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const { definition, columns } = await stepColumns(tx, user, input);
    const row = await tx
      .insertInto('protocol_action', { ...columns, created_by: user.userName, modified_by: user.userName })
      .returningAll()
      .executeTakeFirstOrThrow();
    const step = presentProtocolAction(row, definition);
    await recordChange(trx, user, row, 'create', audited(step));
    return step;
  });
}

export async function updateProtocolAction(
  db: Db,
  user: Principal,
  protocolActionId: string,
  input: ProtocolActionValues,
): Promise<ProtocolAction> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const locked = await lockStep(tx, user, protocolActionId);
    const { definition, columns } = await stepColumns(tx, user, input);
    const row = await tx
      .updateTable('protocol_action')
      .set({ ...columns, modified: new Date(), modified_by: user.userName })
      .where('protocol_action_id', '=', protocolActionId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const step = presentProtocolAction(row, definition);
    await recordChange(trx, user, row, 'update', changedFields(audited(presentProtocolAction(locked)), audited(step)));
    return step;
  });
}

export async function deleteProtocolAction(
  db: Db,
  user: Principal,
  protocolActionId: string,
): Promise<{ message: string }> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const locked = await lockStep(tx, user, protocolActionId);
    await tx.deleteFrom('protocol_action').where('protocol_action_id', '=', protocolActionId).execute();
    await recordChange(trx, user, locked, 'delete', { protocolId: locked.protocol_id });
    return { message: 'Protocol action deleted successfully.' };
  });
}

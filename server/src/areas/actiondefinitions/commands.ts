import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import {
  isBuiltInActionType,
  parameterNames,
  type ActionDefinition,
  type ActionDefinitionValues,
} from '@cfs/contracts/action-definitions';
import type { z } from 'zod';
import type { actionTestInputSchema } from '@cfs/contracts/action-definitions';
import { changedFields, recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import { ALL_TENANTS, canAccessTenant } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { checkEndpoint, enqueueActionRun } from '../../engines/actions/runner.js';
import { ruleWriter } from '../../engines/rules/rule-writer.js';
import { VALIDATION_MESSAGE } from '../../http/error-handler.js';
import { BadRequestError, HttpError, orNotFound } from '../../http/errors.js';
import { actionDefinitionEntity } from './resource.js';

/** A shared (tenantless) action is every tenant's: only a user of all tenants may write it. */
function assertMayWriteTenant(user: Principal, tenantId: string | null): void {
  if (tenantId === null && user.tenantScope.kind !== 'all')
    throw new HttpError(403, AUTOMATION_MESSAGES.tenantlessRefused);
}

/** What a save must hold besides the form's rules: the caller's tenant, an endpoint the outbound guard lets through. */
async function assertSavable(db: Db, user: Principal, input: ActionDefinitionValues): Promise<void> {
  assertMayWriteTenant(user, input.tenantId);
  if (input.tenantId !== null && !(await scoped(db, user.tenantScope).hasTenant(input.tenantId))) {
    throw new BadRequestError(AUTOMATION_MESSAGES.actionSaveFailed, { tenantId: ['Please choose a tenant.'] });
  }
  const refusal = await checkEndpoint(input.endpointUrl);
  if (refusal)
    throw new BadRequestError(AUTOMATION_MESSAGES.endpointForbidden(refusal), {
      endpointUrl: [AUTOMATION_MESSAGES.endpointForbidden(refusal)],
    });
}

export async function findActionDefinition(db: Db, user: Principal, id: string): Promise<ActionDefinition> {
  const row = await scoped(db, user.tenantScope)
    .selectFrom('action_definition')
    .selectAll()
    .where('action_definition_id', '=', id)
    .executeTakeFirst();
  return actionDefinitionEntity.present(orNotFound(row, 'The action definition'));
}

/** PUT v1/actionDefinitions. */
export async function createActionDefinition(
  db: Db,
  user: Principal,
  input: ActionDefinitionValues,
): Promise<ActionDefinition> {
  await assertSavable(db, user, input);
  return db.transaction().execute(async (trx) => {
    const row = await scoped(trx, user.tenantScope)
      .insertInto('action_definition', {
        ...actionDefinitionEntity.writeColumns(input),
        created_by: user.userName,
        modified_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const { modified: _modified, modifiedBy: _modifiedBy, ...created } = actionDefinitionEntity.present(row);
    await recordAudit(trx, user, {
      entityType: 'actionDefinition',
      entityId: row.action_definition_id,
      tenantId: row.tenant_id,
      action: 'create',
      changes: created,
    });
    return actionDefinitionEntity.present(row);
  });
}

/** The definition locked for a change: the caller's, not built-in, and writable by the caller. */
async function lockEditable(
  trx: Parameters<typeof scoped>[0],
  user: Principal,
  id: string,
): Promise<Selectable<Database['action_definition']>> {
  const row = orNotFound(
    await scoped(trx, user.tenantScope)
      .selectFrom('action_definition')
      .selectAll()
      .where('action_definition_id', '=', id)
      .forUpdate()
      .executeTakeFirst(),
    'The action definition',
  );
  if (isBuiltInActionType(row.action_definition_type_id))
    throw new BadRequestError(AUTOMATION_MESSAGES.builtInReadOnly);
  assertMayWriteTenant(user, row.tenant_id);
  return row;
}

/** POST v1/actionDefinitions/{id}. */
export async function updateActionDefinition(
  db: Db,
  user: Principal,
  id: string,
  input: ActionDefinitionValues,
): Promise<ActionDefinition> {
  await assertSavable(db, user, input);
  return db.transaction().execute(async (trx) => {
    const locked = await lockEditable(trx, user, id);
    const before = actionDefinitionEntity.present(locked);
    const row = await scoped(trx, user.tenantScope)
      .updateTable('action_definition')
      .set({ ...actionDefinitionEntity.writeColumns(input), modified: new Date(), modified_by: user.userName })
      .where('action_definition_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = actionDefinitionEntity.present(row);
    const { modified: _modified, modifiedBy: _modifiedBy, ...changes } = changedFields(before, after);
    await recordAudit(trx, user, {
      entityType: 'actionDefinition',
      entityId: id,
      tenantId: row.tenant_id ?? before.tenantId,
      action: 'update',
      changes,
    });
    return after;
  });
}

/**
 * DELETE v1/actionDefinitions/{id} (spec 002 §4 "Action deletion"): the action, its protocol steps
 * (the foreign key cascades) and its entries in every rule's match and expiration actions, in one
 * transaction. Rules of any tenant are cleaned: a rule may not keep running an action that is gone.
 */
export async function deleteActionDefinition(db: Db, user: Principal, id: string): Promise<{ message: string }> {
  return db.transaction().execute(async (trx) => {
    const row = await lockEditable(trx, user, id);
    const rules = await ruleWriter().removeAction(trx, id, user.userName);
    const steps = await scoped(trx, ALL_TENANTS)
      .selectFrom('protocol_action')
      .select(['protocol_action_id', 'protocol_id'])
      .where('action_definition_id', '=', id)
      .execute();
    await scoped(trx, user.tenantScope)
      .deleteFrom('action_definition')
      .where('action_definition_id', '=', id)
      .execute();
    for (const rule of rules) {
      await recordAudit(trx, user, {
        entityType: 'rule',
        entityId: rule.rule_id,
        tenantId: rule.tenant_id,
        action: 'update',
        changes: { actionRemoved: { from: row.name, to: null } },
      });
    }
    await recordAudit(trx, user, {
      entityType: 'actionDefinition',
      entityId: id,
      tenantId: row.tenant_id,
      action: 'delete',
      changes: {
        name: row.name,
        removedFromRules: rules.map((rule) => rule.rule_id),
        removedProtocolActions: steps.map((step) => step.protocol_action_id),
      },
    });
    return { message: AUTOMATION_MESSAGES.actionDeleted };
  });
}

/** A test's values name the action's input parameters only (either wire form); anything else goes in `extra`. */
function assertInputParameters(declared: string | null, sent: readonly string[]): void {
  const names = parameterNames(declared);
  const unknown = sent.filter((name) => !names.includes(name));
  if (unknown.length === 0) return;
  const known = names.length > 0 ? `its input parameters are ${names.join(', ')}` : 'it takes no input parameters';
  throw new BadRequestError(
    VALIDATION_MESSAGE,
    Object.fromEntries(unknown.map((name) => [name, [`Unknown field "${name}": ${known} (send others in extra).`]])),
  );
}

/**
 * POST v1/actionDefinitions/{id}/test (spec 002 §4): runs the action once as a test, for the
 * tenant it belongs to (or, for a shared action, the tenant asked for), with the given values and
 * up to seven extra pairs. The run is a job enqueued in this request's transaction; the answer is
 * the test message's id, by which the Test drawer loads its history row.
 */
export async function testActionDefinition(
  db: Db,
  user: Principal,
  id: string,
  input: z.output<typeof actionTestInputSchema>,
): Promise<{ id: string }> {
  const definition = orNotFound(
    await scoped(db, user.tenantScope)
      .selectFrom('action_definition')
      .select(['tenant_id', 'name', 'input_parameters'])
      .where('action_definition_id', '=', id)
      .executeTakeFirst(),
    'The action definition',
  );
  assertInputParameters(definition.input_parameters, Object.keys(input.parameters));
  const tenantId =
    definition.tenant_id ??
    input.tenantId ??
    (user.tenantScope.kind === 'some' && user.tenantScope.tenantIds.length === 1
      ? user.tenantScope.tenantIds[0]
      : undefined);
  if (!tenantId)
    throw new BadRequestError(AUTOMATION_MESSAGES.actionTestFailed, { tenantId: ['Please choose a tenant.'] });
  if (input.tenantId && definition.tenant_id && input.tenantId !== definition.tenant_id)
    throw new BadRequestError(AUTOMATION_MESSAGES.actionTestFailed, {
      tenantId: [AUTOMATION_MESSAGES.protocolOfOtherTenant],
    });
  if (!canAccessTenant(user.tenantScope, tenantId) || !(await scoped(db, user.tenantScope).hasTenant(tenantId))) {
    throw new BadRequestError(AUTOMATION_MESSAGES.actionTestFailed, { tenantId: ['Please choose a tenant.'] });
  }
  const parameters: Record<string, string> = { ...input.parameters };
  for (const pair of input.extra) parameters[pair.param] = pair.value;
  const messageId = randomUUID();
  await db.transaction().execute(async (trx) => {
    await enqueueActionRun(
      trx,
      { actionDefinitionId: id, tenantId, parameters, origin: { kind: 'test', messageId, triggeredBy: user.userName } },
      `test:${messageId}`,
    );
    await recordAudit(trx, user, {
      entityType: 'actionDefinition',
      entityId: id,
      tenantId,
      action: 'test',
      changes: { messageId },
    });
  });
  return { id: messageId };
}

import type { Selectable } from 'kysely';
import { OPERATORS, MONITORING_LIMITS, TENANT_LEFT_OPERAND } from '@cfs/contracts/monitoring';
import { RULE_AREA_MESSAGES, isRuleActionDefinition } from '@cfs/contracts/rule-options';
import {
  RULE_MESSAGES,
  canCloseOnRecovery,
  defaultClosesOn,
  lifetimeSeconds,
  tenantCondition,
  type RuleClosesOn,
  type Condition,
  type Rule,
  type RuleAction,
  type RuleValues,
} from '@cfs/contracts/rules';
import { changedFields, entityAudit, type AuditAction } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import type { DB as Database } from '../../db/schema.js';
import { compilePattern } from '../../engines/rules/pattern.js';
import { BadRequestError, HttpError, orNotFound } from '../../http/errors.js';
import { forgetRules } from '../../engines/rules/rule-cache.js';
import { ruleEntity } from './resource.js';

type RuleRow = Selectable<Database['rule']>;

/**
 * A tenantless rule is the installation's and runs for every tenant (migration 0021): one
 * tenant's staff may read it but not change what runs for all the others (as shared locations).
 */
function assertMayWriteTenant(user: Principal, tenantId: string | null): void {
  if (tenantId === null && user.tenantScope.kind !== 'all')
    throw new HttpError(403, RULE_AREA_MESSAGES.tenantlessRefused);
}

/** The rule, locked for the write: 404 outside the caller's tenants, 403 when it is every tenant's and the caller is not. */
async function lockRule(tx: ScopedDb<Tx>, user: Principal, ruleId: string): Promise<RuleRow> {
  const row = orNotFound(
    await tx.selectFrom('rule').selectAll().where('rule_id', '=', ruleId).forUpdate().executeTakeFirst(),
    'The rule',
  );
  assertMayWriteTenant(user, row.tenant_id);
  return row;
}

/**
 * The checks the schema cannot make (spec 002 §5 Rule and the server's own): the tenant is the
 * caller's, the subscription the tenant's, every action exists, is visible and may run in a rule
 * of this tenant, and every regular expression compiles in the engine's RE2. A rule with a tenant
 * gets its fixed tenant condition first (added when missing). Returns the columns to write.
 */
async function ruleColumns(tx: ScopedDb<Tx>, user: Principal, input: RuleValues, current?: RuleRow) {
  assertMayWriteTenant(user, input.tenantId);
  const errors: Record<string, string[]> = {};
  const refuse = (field: string, text: string) => void (errors[field] ??= []).push(text);

  // How its matches close: as the input says; left out, a new rule's default, or what a changed
  // rule held while its type and conditions still allow it (a rule changed to another type closes
  // on expiry, its pending period and recovery conditions dropped).
  const recoverable = canCloseOnRecovery(input);
  const closesOn: RuleClosesOn =
    input.closesOn ??
    (current === undefined ? defaultClosesOn(input) : recoverable ? (current.closes_on as RuleClosesOn) : 'expiry');
  const recovery = {
    pendingFor: input.pendingFor,
    recoveryConditions: input.recoveryConditions,
  };
  if (closesOn === 'expiry') {
    if ((current?.pending_seconds ?? 0) > 0 && input.pendingFor === undefined) recovery.pendingFor = null;
    if (current?.recovery_conditions && input.recoveryConditions === undefined) recovery.recoveryConditions = null;
    if (input.pendingFor && (lifetimeSeconds(input.pendingFor) ?? 0) > 0)
      refuse('pendingFor', RULE_MESSAGES.pendingNeedsRecovery);
    if (input.recoveryConditions) refuse('recoveryConditions', RULE_MESSAGES.recoveryConditionsNeedRecovery);
  }

  if (input.tenantId !== null && !(await tx.hasTenant(input.tenantId)))
    refuse('tenantId', RULE_AREA_MESSAGES.tenantRequired);
  if (input.subscriptionId !== null) {
    const subscription = await tx
      .selectFrom('subscription')
      .select('tenant_id')
      .where('subscription_id', '=', input.subscriptionId)
      .executeTakeFirst();
    if (!subscription || subscription.tenant_id !== input.tenantId)
      refuse('subscriptionId', RULE_AREA_MESSAGES.subscriptionOfTenant);
  }

  const patternsCompile = (list: readonly Condition[], field: string) =>
    list.forEach((condition, index) => {
      if (
        (condition.Operator === OPERATORS.Matches || condition.Operator === OPERATORS.NotMatches) &&
        compilePattern(condition.RightOperand ?? '') === undefined
      ) {
        refuse(`${field}.${index}.RightOperand`, RULE_MESSAGES.patternInvalid);
      }
    });
  patternsCompile(input.conditions, 'conditions');
  patternsCompile(input.recoveryConditions ?? [], 'recoveryConditions');

  const actions: [string, RuleAction[]][] = [
    ['matchActions', input.matchActions],
    ['expirationActions', input.expirationActions],
  ];
  const ids = [...new Set(actions.flatMap(([, list]) => list.map((action) => action.ActionDefinitionId)))];
  const definitions = ids.length
    ? await tx
        .selectFrom('action_definition')
        .select(['action_definition_id', 'action_definition_type_id', 'tenant_id'])
        .where('action_definition_id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(definitions.map((row) => [row.action_definition_id, row]));
  for (const [field, list] of actions) {
    list.forEach((action, index) => {
      const definition = byId.get(action.ActionDefinitionId);
      // An action of another tenant would run with this rule's matches: only the rule's tenant's or the installation's.
      const usable =
        definition !== undefined &&
        isRuleActionDefinition({
          actionDefinitionId: definition.action_definition_id,
          actionDefinitionTypeId: definition.action_definition_type_id,
        }) &&
        (definition.tenant_id === null || definition.tenant_id === input.tenantId);
      if (!usable) refuse(`${field}.${index}.ActionDefinitionId`, RULE_MESSAGES.actionNotForRules);
    });
  }

  // Spec 002 §5: with a tenant, the fixed tenant condition comes first (the schema has checked
  // that any tenant condition names this tenant).
  let conditions: Condition[] = input.conditions;
  if (input.tenantId !== null) {
    conditions = [
      tenantCondition(input.tenantId),
      ...input.conditions.filter((condition) => condition.LeftOperand !== TENANT_LEFT_OPERAND),
    ];
    if (conditions.length > MONITORING_LIMITS.maxConditions) refuse('conditions', RULE_MESSAGES.conditionsTooMany);
  }
  if (Object.keys(errors).length > 0) throw new BadRequestError(RULE_MESSAGES.saveFailed, errors);

  return ruleEntity.writeColumns({ ...input, ...recovery, closesOn, conditions });
}

/** What the change history compares. */
function audited(rule: Rule) {
  const {
    created: _created,
    createdBy: _createdBy,
    modified: _modified,
    modifiedBy: _modifiedBy,
    ruleId: _ruleId,
    ...rest
  } = rule;
  return rest;
}

/** Records an action on a rule in the change history, in the write's transaction. */
const recordChange = entityAudit('rule', (row: { rule_id: string; tenant_id: string | null }) => row.rule_id);

/** `recordChange` in the transaction and for the caller of one write of rules. */
type RecordRuleChange = (
  row: Parameters<typeof recordChange>[2],
  action: AuditAction,
  changes: Record<string, unknown>,
) => Promise<void>;

/**
 * A write of rules in one transaction of the caller's tenants, `record` noting it in the change
 * history. Once committed, the change is in force on this instance at once (other instances within
 * a second: engines/rules/rule-cache.ts).
 */
async function writeRules<T>(
  db: Db,
  user: Principal,
  write: (tx: ScopedDb<Tx>, record: RecordRuleChange) => Promise<T>,
): Promise<T> {
  const result = await db
    .transaction()
    .execute((trx) =>
      write(scoped(trx, user.tenantScope), (row, action, changes) => recordChange(trx, user, row, action, changes)),
    );
  forgetRules(db);
  return result;
}

/** A rule just written, recorded as created with its values (after `also`). */
async function created(row: RuleRow, record: RecordRuleChange, also: Record<string, unknown> = {}): Promise<Rule> {
  const rule = ruleEntity.present(row);
  await record(row, 'create', { ...also, ...audited(rule) });
  return rule;
}

export async function findRule(db: Db, user: Principal, ruleId: string): Promise<Rule> {
  const row = await scoped(db, user.tenantScope)
    .selectFrom('rule')
    .selectAll()
    .where('rule_id', '=', ruleId)
    .executeTakeFirst();
  return ruleEntity.present(orNotFound(row, 'The rule'));
}

/** PUT v1/rules. */
export async function createRule(db: Db, user: Principal, input: RuleValues): Promise<Rule> {
  return writeRules(db, user, async (tx, record) => {
    const columns = await ruleColumns(tx, user, input);
    const row = await tx
      .insertInto('rule', { ...columns, created_by: user.userName, modified_by: user.userName })
      .returningAll()
      .executeTakeFirstOrThrow();
    return created(row, record);
  });
}

/** POST v1/rules/{ruleId}. */
export async function updateRule(db: Db, user: Principal, ruleId: string, input: RuleValues): Promise<Rule> {
  return writeRules(db, user, async (tx, record) => {
    const locked = await lockRule(tx, user, ruleId);
    const before = ruleEntity.present(locked);
    const columns = await ruleColumns(tx, user, input, locked);
    const row = await tx
      .updateTable('rule')
      .set({ ...columns, modified: new Date(), modified_by: user.userName })
      .where('rule_id', '=', ruleId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = ruleEntity.present(row);
    await record(
      { rule_id: ruleId, tenant_id: row.tenant_id ?? before.tenantId },
      'update',
      changedFields(audited(before), audited(after)),
    );
    return after;
  });
}

/** POST v1/rules/{ruleId}/toggledisabled, as the spec spells it toggledisabled/{ruleId} (spec 002 §4: enabled is toggled with a dedicated call). */
export async function toggleRule(db: Db, user: Principal, ruleId: string): Promise<Rule> {
  return writeRules(db, user, async (tx, record) => {
    const before = await lockRule(tx, user, ruleId);
    const row = await tx
      .updateTable('rule')
      .set({ enabled: !before.enabled, modified: new Date(), modified_by: user.userName })
      .where('rule_id', '=', ruleId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await record(row, 'update', { enabled: { from: before.enabled, to: row.enabled } });
    return ruleEntity.present(row);
  });
}

/** DELETE v1/rules/{ruleId}: its matches go with it (ON DELETE CASCADE). */
export async function deleteRule(db: Db, user: Principal, ruleId: string): Promise<{ message: string }> {
  return writeRules(db, user, async (tx, record) => {
    const rule = await lockRule(tx, user, ruleId);
    await tx.deleteFrom('rule').where('rule_id', '=', ruleId).execute();
    await record(rule, 'delete', { name: rule.name });
    return { message: RULE_MESSAGES.deleted };
  });
}

/** POST v1/rules/{ruleId}/copy: "Copy of {name}", created disabled (spec 002 §4). */
export async function copyRule(db: Db, user: Principal, ruleId: string): Promise<Rule> {
  return writeRules(db, user, async (tx, record) => {
    const source = await lockRule(tx, user, ruleId);
    const row = await tx
      .insertInto('rule', {
        tenant_id: source.tenant_id,
        subscription_id: source.subscription_id,
        enabled: false,
        name: `${RULE_AREA_MESSAGES.copyPrefix}${source.name}`.slice(0, 200),
        description: source.description,
        rule_type_id: source.rule_type_id,
        match_lifetime_seconds: source.match_lifetime_seconds,
        use_sliding_expiration: source.use_sliding_expiration,
        time_conditions: source.time_conditions === null ? null : JSON.stringify(source.time_conditions),
        conditions: JSON.stringify(source.conditions),
        match_actions: JSON.stringify(source.match_actions),
        expiration_actions: JSON.stringify(source.expiration_actions),
        closes_on: source.closes_on,
        pending_seconds: source.pending_seconds,
        recovery_conditions: source.recovery_conditions === null ? null : JSON.stringify(source.recovery_conditions),
        created_by: user.userName,
        modified_by: user.userName,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return created(row, record, { copiedFrom: ruleId });
  });
}

import { sql, type SqlBool } from 'kysely';
import {
  LEFT_OPERANDS,
  LEFT_OPERANDS_BY_RULE_TYPE,
  type LeftOperandType,
  type RuleTypeId,
} from '@cfs/contracts/monitoring';
import {
  CONDITION_INPUT_OPTIONS_MAX,
  ENUM_CONDITION_OPTIONS,
  type ConditionInputOption,
  type LeftOperandOption,
} from '@cfs/contracts/rule-options';
import { WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { canAccessTenant, type TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { NotFoundError } from '../../http/errors.js';

/** A tenant named by a lookup must be the caller's (404 as for any other tenant's object). */
async function assertTenant(db: Db, scope: TenantScope, tenantId: string): Promise<void> {
  if (!canAccessTenant(scope, tenantId) || !(await scoped(db, scope).hasTenant(tenantId)))
    throw new NotFoundError('The tenant');
}

/**
 * GET v1/rules/GetRulesForAction(actionDefinitionId=) (spec 002 §7): the caller's rules whose
 * match or expiration actions run the action, for the action catalogue's delete. Read through the
 * tenant index; a tenant holds few enough rules that the JSON containment needs no index of its own.
 */
export async function findRulesForAction(
  db: Db,
  scope: TenantScope,
  actionDefinitionId: string,
): Promise<{ ruleId: string; name: string }[]> {
  const runs = JSON.stringify([{ ActionDefinitionId: actionDefinitionId }]);
  return scoped(db, scope)
    .selectFrom('rule')
    .select(['rule_id as ruleId', 'name'])
    .where(sql<SqlBool>`(match_actions @> ${runs}::jsonb OR expiration_actions @> ${runs}::jsonb)`)
    .orderBy('name')
    .orderBy('rule_id')
    .limit(1000)
    .execute();
}

/**
 * GET /api/generalLookup/ruleleftoperands?ruleType=&tenantId= (spec 000 §7): what a condition of
 * the rule type may read. The Tenant operand stays in the list for a rule with a tenant too: its
 * fixed first condition shows with it.
 */
export async function findLeftOperands(
  db: Db,
  scope: TenantScope,
  ruleTypeId: RuleTypeId,
  tenantId: string | undefined,
): Promise<LeftOperandOption[]> {
  if (tenantId !== undefined) await assertTenant(db, scope, tenantId);
  return LEFT_OPERANDS_BY_RULE_TYPE[ruleTypeId].map((key) => {
    const { id, name, type, field } = LEFT_OPERANDS[key];
    return { id, name, type, field };
  });
}

/**
 * GET /api/{tenantId}/rulelookup/conditionInputOptions/{leftOperandType}?tenantId= (spec 000 §7):
 * the values a condition on that kind of operand can compare with, from what the tenant has
 * (`tenantId` of the query, the rule's, else the route's). At most CONDITION_INPUT_OPTIONS_MAX,
 * each read through a (tenant, …) index; typed kinds (text, number, time span) have none.
 */
export async function findConditionInputOptions(
  db: Db,
  scope: TenantScope,
  routeTenantId: string,
  type: LeftOperandType,
  ruleTenantId: string | undefined,
): Promise<ConditionInputOption[]> {
  await assertTenant(db, scope, routeTenantId);
  const tenantId = ruleTenantId ?? routeTenantId;
  if (ruleTenantId !== undefined && ruleTenantId !== routeTenantId) await assertTenant(db, scope, ruleTenantId);
  const tx = scoped(db, scope);
  switch (type) {
    case 'entity': {
      // The entities that have reported, named as blocks name them (Properties.BlockName) or by their device.
      const rows = await tx
        .selectFrom('packet_latest')
        .leftJoin('device', (join) =>
          join
            .onRef('device.device_id', '=', 'packet_latest.entity_id')
            .onRef('device.tenant_id', '=', 'packet_latest.tenant_id'),
        )
        .select([
          'packet_latest.entity_id as entityId',
          sql<string | null>`coalesce(packet_latest.message -> 'Properties' ->> 'BlockName', device.name)`.as('label'),
        ])
        .where('packet_latest.tenant_id', '=', tenantId)
        .orderBy('packet_latest.entity_id')
        .limit(CONDITION_INPUT_OPTIONS_MAX)
        .execute();
      return rows
        .map((row) => ({ value: row.entityId, label: row.label ? `${row.label} (${row.entityId})` : row.entityId }))
        .sort((a, b) => a.label.localeCompare(b.label));
    }
    case 'device': {
      const rows = await tx
        .selectFrom('device')
        .select(['device_id', 'name'])
        .where('tenant_id', '=', tenantId)
        .where('is_deleted', '=', false)
        .orderBy('name')
        .orderBy('device_id')
        .limit(CONDITION_INPUT_OPTIONS_MAX)
        .execute();
      return rows.map((row) => ({ value: row.device_id, label: row.name }));
    }
    case 'tenant': {
      const rows = await tx
        .selectFrom('tenant')
        .select(['tenant_id', 'name'])
        .orderBy('name')
        .limit(CONDITION_INPUT_OPTIONS_MAX)
        .execute();
      return rows.map((row) => ({ value: row.tenant_id, label: row.name }));
    }
    case 'workUnitType': {
      // As the work unit lookups show them (spec 000 §3): Legacy hidden, Request as "User Request".
      const rows = await db
        .selectFrom('work_unit_type')
        .select(['work_unit_type_id', 'name'])
        .where('enabled', '=', true)
        .where('work_unit_type_id', '<>', WORK_UNIT_TYPES.Legacy)
        .orderBy('work_unit_type_id')
        .execute();
      return rows.map((row) => ({
        value: String(row.work_unit_type_id),
        label: row.work_unit_type_id === WORK_UNIT_TYPES.Request ? 'User Request' : row.name,
      }));
    }
    default:
      return ENUM_CONDITION_OPTIONS[type] ?? [];
  }
}

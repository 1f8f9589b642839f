import { PROTOCOL_ACTION_TYPES } from '@cfs/contracts/protocols';
import { RULE_ACTION_TYPES, RULE_BUILT_IN_ACTION_IDS } from '@cfs/contracts/monitoring';
import type { RuleActionDefinition } from '@cfs/contracts/rule-options';
import { canAccessTenant, type TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { NotFoundError } from '../../http/errors.js';

/**
 * GET v1/actionDefinitions/GetActionDefinitionsForRules(tenantId=) (spec 002 §7): the actions a
 * rule of the tenant may run — the tenant's own and the installation's, of a rule type, and Send
 * Email (`isRuleActionDefinition`), by name.
 */
export function findActionDefinitionsForRules(
  db: Db,
  scope: TenantScope,
  tenantId: string,
): Promise<RuleActionDefinition[]> {
  return findActionDefinitionsOfTypes(db, scope, tenantId, RULE_ACTION_TYPES, RULE_BUILT_IN_ACTION_IDS);
}

/**
 * GET v1/actionDefinitions/GetActionDefinitionsForProtocols(tenantId=) (spec 002 §7): the actions
 * a protocol step of the tenant may run (types 1, 2, 4 and 5), the tenant's own and shared ones.
 */
export function findActionDefinitionsForProtocols(
  db: Db,
  scope: TenantScope,
  tenantId: string,
): Promise<RuleActionDefinition[]> {
  return findActionDefinitionsOfTypes(db, scope, tenantId, PROTOCOL_ACTION_TYPES);
}

async function findActionDefinitionsOfTypes(
  db: Db,
  scope: TenantScope,
  tenantId: string,
  types: readonly number[],
  builtIns: readonly string[] = [],
): Promise<RuleActionDefinition[]> {
  if (!canAccessTenant(scope, tenantId) || !(await scoped(db, scope).hasTenant(tenantId)))
    throw new NotFoundError('The tenant');
  return scoped(db, scope)
    .selectFrom('action_definition')
    .select([
      'action_definition_id as actionDefinitionId',
      'name',
      'description',
      'action_definition_type_id as actionDefinitionTypeId',
      'tenant_id as tenantId',
      'input_parameters as inputParameters',
    ])
    .where((eb) => eb.or([eb('tenant_id', '=', tenantId), eb('tenant_id', 'is', null)]))
    .where((eb) =>
      eb.or([
        eb('action_definition_type_id', 'in', [...types]),
        ...(builtIns.length > 0 ? [eb('action_definition_id', 'in', [...builtIns])] : []),
      ]),
    )
    .orderBy('name')
    .orderBy('action_definition_id')
    .limit(1000)
    .execute();
}

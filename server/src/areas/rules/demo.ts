import { BUILT_IN_ACTIONS, LEFT_OPERANDS, OPERATORS, RULE_TYPES, type BlockColorName } from '@cfs/contracts/monitoring';
import { tenantCondition, type Condition } from '@cfs/contracts/rules';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Tx } from '../../db/database.js';
import { DEMO } from '../../db/seed.js';
import { scoped } from '../../db/scoped.js';

const metricAbove = (field: string, value: number): Condition => ({
  Type: 0,
  LeftOperand: LEFT_OPERANDS.Metric.id,
  LeftOperandFieldName: field,
  Operator: OPERATORS.GreaterThan,
  RightOperand: String(value),
  OccurrencePattern: null,
});
const colour = (name: BlockColorName) => ({ ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: name } });

/** Demo rules: each demo tenant watches its devices' CPU; Contoso keeps a disabled one beside it. */
export async function seedDemoRules(trx: Tx): Promise<void> {
  const rule = (tenantId: string, name: string, enabled: boolean, conditions: Condition[], description: string) => ({
    tenant_id: tenantId,
    name,
    description,
    enabled,
    rule_type_id: RULE_TYPES.Ingestion,
    match_lifetime_seconds: 900,
    conditions: JSON.stringify([tenantCondition(tenantId), ...conditions]),
    match_actions: JSON.stringify([colour('Red')]),
    expiration_actions: JSON.stringify([colour('Green')]),
    created_by: 'seed',
    modified_by: 'seed',
  });
  await scoped(trx, ALL_TENANTS)
    .insertInto('rule', [
      rule(DEMO.contoso, 'High CPU', true, [metricAbove('CpuPercent', 90)], 'A device above 90% CPU turns its block red until it calms down.'),
      rule(DEMO.contoso, 'Memory pressure', false, [metricAbove('MemoryPercent', 95)], 'Switched off while the warehouse scanners are replaced.'),
      rule(DEMO.fabrikam, 'Line controller overload', true, [metricAbove('CpuPercent', 85)], 'A line controller above 85% CPU.'),
    ])
    .execute();
}

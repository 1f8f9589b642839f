import { BUILT_IN_ACTIONS, CONDITION_TYPES, LEFT_OPERANDS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { tenantCondition, type ConditionInput, type RuleAction } from '@cfs/contracts/rules';
import type { Tx } from '../../db/database.js';
import { DEMO } from '../../db/demo-ids.js';
import { scoped } from '../../db/scoped.js';

const condition = (
  leftOperand: number,
  operator: number,
  rightOperand: string | null,
  fieldName: string | null = null,
): ConditionInput => ({
  Type: CONDITION_TYPES.And,
  LeftOperand: leftOperand,
  LeftOperandFieldName: fieldName,
  Operator: operator,
  RightOperand: rightOperand,
  OccurrencePattern: null,
});
const color = (name: string): RuleAction => ({
  ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id,
  Parameters: { Color: name },
});

/**
 * Two rules on the demo agent's tiles (the blocks demo), so that `npm start` shows the engine at
 * work, both closing as a new Ingestion rule does, on recovery (docs/features/rules.md "A match's
 * life"): the CPU operation's tile turns red with an incident while the machine's CPU is over
 * 80 % and back to green once it reports under 70 % (a recovery condition: a CPU hovering at 80 %
 * does not open and close an incident with every report); the portal health tile is green while
 * its check reports and turns grey once it has been quiet for five minutes (no data). Each names
 * its entity, so packets of other entities never meet them.
 */
export async function seedDemoRules(trx: Tx): Promise<void> {
  const tx = scoped(trx, { kind: 'some', tenantIds: [DEMO.contoso] });
  const rule = (
    name: string,
    description: string,
    conditions: ConditionInput[],
    matchActions: RuleAction[],
    expirationActions: RuleAction[],
    recoveryConditions: ConditionInput[] | null = null,
  ) => ({
    tenant_id: DEMO.contoso,
    subscription_id: DEMO.contosoProduction,
    name,
    description,
    rule_type_id: RULE_TYPES.Ingestion,
    match_lifetime_seconds: 300,
    closes_on: 'recovery',
    recovery_conditions: recoveryConditions === null ? null : JSON.stringify(recoveryConditions),
    conditions: JSON.stringify([tenantCondition(DEMO.contoso), ...conditions]),
    match_actions: JSON.stringify(matchActions),
    expiration_actions: JSON.stringify(expirationActions),
    created_by: 'seed',
    modified_by: 'seed',
  });
  await tx
    .insertInto('rule', [
      rule(
        'Demo agent CPU over 80%',
        "The demo agent's CPU operation reports over 80 %: its tile turns red and an incident is opened; back to green once it reports under 70 %.",
        [
          condition(LEFT_OPERANDS.Entity.id, OPERATORS.Equals, DEMO.demoAgentCpu),
          condition(LEFT_OPERANDS.Metric.id, OPERATORS.GreaterThan, '80', 'CpuPercent'),
        ],
        [color('Red'), { ActionDefinitionId: BUILT_IN_ACTIONS.createWorkUnit.id, Parameters: { SeverityId: '2' } }],
        [color('Green')],
        [condition(LEFT_OPERANDS.Metric.id, OPERATORS.LessThan, '70', 'CpuPercent')],
      ),
      rule(
        'Portal health reporting',
        "The demo agent's check of the portal reports: its tile is green; grey once it has been quiet for five minutes.",
        [
          condition(LEFT_OPERANDS.Entity.id, OPERATORS.Equals, DEMO.demoAgentHealth),
          condition(LEFT_OPERANDS.Value.id, OPERATORS.IsNotEmpty, null),
        ],
        [color('Green')],
        [color('Grey')],
      ),
    ])
    .execute();
}

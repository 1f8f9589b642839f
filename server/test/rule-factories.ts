import { expect } from 'vitest';
import { LEFT_OPERANDS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { tenantCondition, type RuleAction } from '@cfs/contracts/rules';
import { forgetRules } from '../src/engines/rules/rule-cache.js';
import type { TestPortal } from './harness.js';

/* Rules and packets of the engine's tests ------------------------------------------------------
 * Made as the rule editor and an agent would leave them, each test on a metric field of its own so
 * that no other test's packets match its rule. */

/** Metric `field` greater than `threshold`: the condition the engine's tests match on. */
export const metricAbove = (field: string, threshold = '90') => ({
  Type: 0,
  LeftOperand: LEFT_OPERANDS.Metric.id,
  LeftOperandFieldName: field,
  Operator: OPERATORS.GreaterThan,
  RightOperand: threshold,
  OccurrencePattern: null,
});

/** An enabled Ingestion rule of the tenant, made in the database: its metric `field` above 90 matches. */
export async function createMetricRule(
  portal: TestPortal,
  tenantId: string,
  field: string,
  options: {
    name?: string;
    closesOn?: 'expiry' | 'recovery';
    lifetimeSeconds?: number;
    matchActions?: RuleAction[];
    expirationActions?: RuleAction[];
  } = {},
): Promise<string> {
  const { rule_id: ruleId } = await portal.db
    .insertInto('rule')
    .values({
      tenant_id: tenantId,
      name: options.name ?? `Rule ${field}`,
      rule_type_id: RULE_TYPES.Ingestion,
      match_lifetime_seconds: options.lifetimeSeconds ?? 3600,
      closes_on: options.closesOn ?? 'recovery',
      conditions: JSON.stringify([tenantCondition(tenantId), metricAbove(field)]),
      match_actions: JSON.stringify(options.matchActions ?? []),
      expiration_actions: JSON.stringify(options.expirationActions ?? []),
    })
    .returning('rule_id')
    .executeTakeFirstOrThrow();
  forgetRules(portal.db);
  return ruleId;
}

/** One packet of the entity with its metric `field` at `value` (and a block name), posted with the tenant's token. */
export async function postMetric(
  portal: TestPortal,
  token: string,
  packet: { entityId: string; field: string; value: number; name?: string; timestamp?: Date },
): Promise<void> {
  const response = await portal.app.inject({
    method: 'POST',
    url: '/v1/packets',
    payload: [
      {
        entityId: packet.entityId,
        timestamp: (packet.timestamp ?? new Date()).toISOString(),
        message: {
          Metrics: { [packet.field]: packet.value },
          ...(packet.name ? { Properties: { BlockName: packet.name } } : {}),
        },
      },
    ],
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode, response.body).toBe(200);
}

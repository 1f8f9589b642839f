import { sql } from 'kysely';
import { MONITORING_LIMITS, RULE_TYPES } from '@cfs/contracts/monitoring';
import {
  formatLifetime,
  lifetimeSeconds,
  ruleInputSchema,
  ruleSchema,
  timeConditionsSchema,
  type Rule,
  type RuleClosesOn,
} from '@cfs/contracts/rules';
import { defineEntity } from '../../odata/entity.js';
import { timeSpanSql } from '../../odata/resource.js';
import { subscriptionReference, tenantReference } from '../../odata/references.js';

const ruleTypeLabels = Object.fromEntries(Object.entries(RULE_TYPES).map(([name, id]) => [id, name]));

/**
 * A rule, described once on its contract: GET v1/rules (spec 002 §2 Rules, §7), the caller's rules
 * and the installation's (tenantless) ones, with tenant and subscription to expand; one rule; and
 * the columns an input writes (ruleColumns checks it and puts the tenant condition first). The
 * lifetime is stored in seconds and shown as the spec writes time spans (HH:mm:ss); time
 * limitations travel as JSON text (§3): the list has the database's text of the stored JSON, the
 * item JSON.stringify's (the same JSON, spaced apart differently). Conditions and actions are
 * stored as the JSON the input held, which the schema checked. The grid's "only enabled" is its own
 * filter (`enabled eq true`), sent unless Show Disabled Rules is on.
 */
export const ruleEntity = defineEntity({
  table: 'rule',
  key: 'ruleId',
  contract: ruleSchema,
  writable: ruleInputSchema,
  computed: {
    matchLifetime: {
      sql: (col) => timeSpanSql(col('match_lifetime_seconds')),
      value: (row) => formatLifetime(row.match_lifetime_seconds),
      write: (value) => ({
        match_lifetime_seconds: lifetimeSeconds(value) ?? MONITORING_LIMITS.minimumRuleLifetimeSeconds,
      }),
    },
    timeConditions: {
      sql: (col) => sql`${col('time_conditions')}::text`,
      value: (row) => (row.time_conditions === null ? null : JSON.stringify(row.time_conditions)),
      write: (value) => ({
        time_conditions: value === null ? null : JSON.stringify(timeConditionsSchema.parse(JSON.parse(value))),
      }),
    },
    conditions: {
      sql: (col) => col('conditions'),
      value: (row) => row.conditions as Rule['conditions'],
      write: (value) => ({ conditions: JSON.stringify(value) }),
    },
    matchActions: {
      sql: (col) => col('match_actions'),
      value: (row) => row.match_actions as Rule['matchActions'],
      write: (value) => ({ match_actions: JSON.stringify(value) }),
    },
    expirationActions: {
      sql: (col) => col('expiration_actions'),
      value: (row) => row.expiration_actions as Rule['expirationActions'],
      write: (value) => ({ expiration_actions: JSON.stringify(value) }),
    },
    // Left out of an input (undefined), the three below keep what the rule holds.
    closesOn: {
      sql: (col) => col('closes_on'),
      value: (row) => row.closes_on as RuleClosesOn,
      write: (value) => (value === undefined ? {} : { closes_on: value }),
    },
    pendingFor: {
      sql: (col) => sql`CASE WHEN ${col('pending_seconds')} > 0 THEN ${timeSpanSql(col('pending_seconds'))} END`,
      value: (row) => (row.pending_seconds > 0 ? formatLifetime(row.pending_seconds) : null),
      write: (value) =>
        value === undefined ? {} : { pending_seconds: value === null ? 0 : (lifetimeSeconds(value) ?? 0) },
    },
    recoveryConditions: {
      sql: (col) => col('recovery_conditions'),
      value: (row) => row.recovery_conditions as Rule['recoveryConditions'],
      write: (value) =>
        value === undefined ? {} : { recovery_conditions: value === null ? null : JSON.stringify(value) },
    },
  },
  fields: {
    ruleTypeId: { type: 'integer', labels: ruleTypeLabels },
    matchLifetime: { filterable: false },
    timeConditions: { filterable: false, sortable: false },
    pendingFor: { filterable: false },
    recoveryConditions: { filterable: false, sortable: false },
  },
  unlisted: ['changeWorkUnitId'],
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
    subscription: { kind: 'one', resource: () => subscriptionReference, column: 'subscription_id' },
  },
  defaultOrderBy: 'name asc',
});

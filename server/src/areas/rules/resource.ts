import { sql } from 'kysely';
import { RULE_TYPES } from '@cfs/contracts/monitoring';
import { defineResource } from '../../odata/resource.js';
import { subscriptionReference, tenantReference } from '../../odata/references.js';

const ruleTypeLabels = Object.fromEntries(Object.entries(RULE_TYPES).map(([name, id]) => [id, name]));

/**
 * GET v1/rules (spec 002 §2 Rules, §7): the caller's rules and the installation's (tenantless)
 * ones, with tenant and subscription to expand. The lifetime is stored in seconds and shown as
 * the spec writes time spans (HH:mm:ss); time limitations travel as JSON text (§3). The grid's
 * "only enabled" is its own filter (`enabled eq true`), sent unless Show Disabled Rules is on.
 */
export const rulesResource = defineResource({
  table: 'rule',
  key: 'ruleId',
  fields: {
    ruleId: { type: 'guid' },
    enabled: { type: 'boolean' },
    name: { type: 'string' },
    description: { type: 'string' },
    ruleTypeId: { type: 'integer', labels: ruleTypeLabels },
    tenantId: { type: 'guid' },
    subscriptionId: { type: 'guid' },
    // HH:mm:ss of a lifetime under 100 hours sorts as its text does.
    matchLifetime: {
      type: 'string',
      sql: (col) => sql`to_char(make_interval(secs => ${col('match_lifetime_seconds')}), 'HH24:MI:SS')`,
      filterable: false,
    },
    useSlidingExpiration: { type: 'boolean' },
    timeConditions: {
      type: 'string',
      sql: (col) => sql`${col('time_conditions')}::text`,
      filterable: false,
      sortable: false,
    },
    conditions: { type: 'json' },
    matchActions: { type: 'json' },
    expirationActions: { type: 'json' },
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
    modified: { type: 'datetime' },
    modifiedBy: { type: 'string' },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
    subscription: { kind: 'one', resource: () => subscriptionReference, column: 'subscription_id' },
  },
  defaultOrderBy: 'name asc',
});

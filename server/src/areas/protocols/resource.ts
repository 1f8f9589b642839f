import { sql } from 'kysely';
import { defineResource } from '../../odata/resource.js';
import { tenantReference } from '../../odata/references.js';

/**
 * GET v1/protocols (spec 002 §2 Protocols, §7): the caller's tenants' protocols and the
 * installation's (tenantless) ones, by name. The timer is stored in seconds and travels as
 * HH:mm:ss under the spec's spelling `timerInverval`. As a lookup the caller filters
 * `tenantId eq X or tenantId eq null`.
 */
export const protocolsResource = defineResource({
  table: 'protocol',
  key: 'protocolId',
  fields: {
    protocolId: { type: 'integer' },
    name: { type: 'string' },
    description: { type: 'string' },
    tenantId: { type: 'guid' },
    // HH:mm:ss of an interval under 100 hours sorts as its text does.
    timerInverval: {
      type: 'string',
      sql: (col) => sql`to_char(make_interval(secs => ${col('timer_interval_seconds')}), 'HH24:MI:SS')`,
      filterable: false,
    },
    manualActions: { type: 'string' },
    modified: { type: 'datetime' },
    modifiedBy: { type: 'string' },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
  },
  defaultOrderBy: 'name asc',
});

import { formatInterval, intervalSeconds } from '@cfs/contracts/device-operations';
import { PROTOCOL_TIMER, protocolInputSchema, protocolSchema } from '@cfs/contracts/protocols';
import { defineEntity } from '../../odata/entity.js';
import { timeSpanSql } from '../../odata/resource.js';
import { tenantReference } from '../../odata/references.js';

/**
 * A protocol, described once on its contract: GET v1/protocols (spec 002 §2 Protocols, §7), the
 * caller's tenants' protocols and the installation's (tenantless) ones, by name; one protocol; and
 * the columns an input writes. The timer is stored in seconds and travels as HH:mm:ss under the
 * spec's spelling `timerInverval`. As a lookup the caller filters `tenantId eq X or tenantId eq null`.
 */
export const protocolEntity = defineEntity({
  table: 'protocol',
  key: 'protocolId',
  contract: protocolSchema,
  writable: protocolInputSchema,
  computed: {
    timerInverval: {
      // HH:mm:ss of an interval under 100 hours sorts as its text does.
      sql: (col) => timeSpanSql(col('timer_interval_seconds')),
      value: (row) => formatInterval(row.timer_interval_seconds),
      write: (value) => ({ timer_interval_seconds: intervalSeconds(value) ?? PROTOCOL_TIMER.minimumSeconds }),
    },
  },
  fields: { timerInverval: { filterable: false } },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
  },
  defaultOrderBy: 'name asc',
});

import {
  FREQUENCY_LABELS,
  deviceOperationInputSchema,
  deviceOperationSchema,
  formatInterval,
  intervalSeconds,
  operationSchema,
  type DeviceOperation,
  type Operation,
} from '@cfs/contracts/device-operations';
import { defineEntity } from '../../odata/entity.js';
import { defineResource, timeSpanSql, type Resource } from '../../odata/resource.js';

/** The package an operation belongs to, as a grid names it. */
const packageReference = defineResource({
  table: 'package',
  key: 'packageId',
  fields: { packageId: { type: 'guid' }, name: { type: 'string' }, tenantId: { type: 'guid' } },
});

/**
 * A catalogue operation as a device operation shows it, described on its contract: `$expand=operation($expand=package)`
 * and the operations a device can run. The packages area writes operations; this is how they read here.
 */
export const operationEntity = defineEntity({
  table: 'operation',
  key: 'operationId',
  contract: operationSchema,
  columns: { frequencyDefinitions: 'frequency_type_ids', operationType: 'operation_type_id' },
  computed: {
    parameterDefinitions: {
      sql: (col) => col('parameter_definitions'),
      value: (row) => row.parameter_definitions as Operation['parameterDefinitions'],
    },
    defaultInterval: {
      sql: (col) => timeSpanSql(col('default_interval_seconds')),
      value: (row) => formatInterval(row.default_interval_seconds),
    },
  },
  relations: { package: { kind: 'one', resource: () => packageReference, column: 'package_id' } },
  defaultOrderBy: 'name asc',
});

/** GET v1/operations/GetAvailableOperationsForDevice: the operations, and the count before $filter that the base adds. */
export const availableOperationsResource: Resource = {
  ...operationEntity.resource,
  fields: { ...operationEntity.resource.fields, totalBeforeFiltering: { type: 'integer' } },
};

/**
 * A device operation, described once on its contract: GET v1/deviceOperations (spec 002 §7), one
 * device operation, and the columns the form writes. The interval is stored in seconds and shown
 * as HH:mm:ss; `packetInfo`, the operation's latest packet, is read by the list's base statement
 * (`deviceOperationsBase`) in the same statement.
 */
export const deviceOperationEntity = defineEntity({
  table: 'device_operation',
  key: 'deviceOperationId',
  contract: deviceOperationSchema,
  writable: deviceOperationInputSchema,
  computed: {
    interval: {
      sql: (col) => timeSpanSql(col('interval_seconds')),
      value: (row) => formatInterval(row.interval_seconds),
      write: (value) => ({ interval_seconds: intervalSeconds(value) ?? 0 }),
    },
    parameters: {
      sql: (col) => col('parameters'),
      value: (row) => row.parameters as DeviceOperation['parameters'],
      // Only the parameter's own three fields are kept.
      write: (value) => ({
        parameters: JSON.stringify(value.map(({ Name, Source, Value }) => ({ Name, Source, Value }))),
      }),
    },
  },
  joined: ['packetInfo'],
  fields: { frequencyTypeId: { labels: FREQUENCY_LABELS } },
  relations: { operation: { kind: 'one', resource: () => operationEntity.resource, column: 'operation_id' } },
  defaultOrderBy: 'label asc',
});

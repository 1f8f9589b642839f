import { FREQUENCY_LABELS } from '@cfs/contracts/device-operations';
import { sql } from 'kysely';
import { defineResource, type FieldDef } from '../../odata/resource.js';

/** The package an operation belongs to, as a grid names it. */
const packageReference = defineResource({
  table: 'package',
  key: 'packageId',
  fields: { packageId: { type: 'guid' }, name: { type: 'string' }, tenantId: { type: 'guid' } },
});

const operationFields = {
  operationId: { type: 'guid' },
  packageId: { type: 'guid' },
  name: { type: 'string' },
  description: { type: 'string' },
  parameterDefinitions: { type: 'json' },
  frequencyDefinitions: { type: 'json', column: 'frequency_type_ids' },
  defaultInterval: {
    type: 'string',
    sql: (col) => sql`to_char(make_interval(secs => ${col('default_interval_seconds')}), 'HH24:MI:SS')`,
  },
  operationType: { type: 'integer', column: 'operation_type_id' },
  operationResultTypeId: { type: 'integer' },
} satisfies Record<string, FieldDef>;

const packageRelation = { package: { kind: 'one', resource: () => packageReference, column: 'package_id' } } as const;

/** `$expand=operation($expand=package)` of a device operation. */
export const operationResource = defineResource({
  table: 'operation',
  key: 'operationId',
  fields: operationFields,
  relations: packageRelation,
  defaultOrderBy: 'name asc',
});

/** GET v1/operations/GetAvailableOperationsForDevice: the base adds the count before $filter. */
export const availableOperationsResource = defineResource({
  table: 'operation',
  key: 'operationId',
  fields: { ...operationFields, totalBeforeFiltering: { type: 'integer' } },
  relations: packageRelation,
  defaultOrderBy: 'name asc',
});

/**
 * GET v1/deviceOperations (spec 002 §7): the base statement adds `interval` (HH:mm:ss) and
 * `packet_info`, the operation's latest packet, so a page is one statement.
 */
export const deviceOperationsResource = defineResource({
  table: 'device_operation',
  key: 'deviceOperationId',
  fields: {
    deviceOperationId: { type: 'guid' },
    deviceId: { type: 'guid' },
    tenantId: { type: 'guid' },
    operationId: { type: 'guid' },
    label: { type: 'string' },
    referenceId: { type: 'string' },
    globalSettingId: { type: 'string' },
    enabled: { type: 'boolean' },
    operationComplete: { type: 'boolean' },
    completionToken: { type: 'guid' },
    frequencyTypeId: { type: 'integer', labels: FREQUENCY_LABELS },
    interval: { type: 'string' },
    isInteractive: { type: 'boolean' },
    isDeleted: { type: 'boolean' },
    parameters: { type: 'json' },
    created: { type: 'datetime' },
    modified: { type: 'datetime' },
    modifiedBy: { type: 'string' },
    packetInfo: { type: 'json' },
  },
  relations: { operation: { kind: 'one', resource: () => operationResource, column: 'operation_id' } },
  defaultOrderBy: 'label asc',
});

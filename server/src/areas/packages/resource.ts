import { sql } from 'kysely';
import {
  EXECUTABLE_TYPES,
  OPERATION_RESULT_TYPES,
  OPERATION_TYPES,
  PACKAGE_TYPES,
  PACKAGE_VERSION_STATUSES,
} from '@cfs/contracts/fleet';
import { packageInputSchema, packageSchema, type Package } from '@cfs/contracts/packages';
import { defineEntity } from '../../odata/entity.js';
import { defineResource } from '../../odata/resource.js';
import { tenantReference } from '../../odata/references.js';

const labelsOf = (values: Record<string, number>) =>
  Object.fromEntries(Object.entries(values).map(([label, id]) => [id, label]));

export const operationsResource = defineResource({
  table: 'operation',
  key: 'operationId',
  fields: {
    operationId: { type: 'guid' },
    packageId: { type: 'guid' },
    name: { type: 'string' },
    description: { type: 'string' },
    parameterDefinitions: { type: 'json' },
    frequencyDefinitions: { type: 'json', column: 'frequency_type_ids' },
    // Stored as seconds, shown as the spec writes intervals (HH:mm:ss).
    defaultInterval: {
      type: 'string',
      sql: (col) => sql`to_char(make_interval(secs => ${col('default_interval_seconds')}), 'HH24:MI:SS')`,
      filterable: false,
      sortable: false,
    },
    operationType: { type: 'integer', column: 'operation_type_id', labels: labelsOf(OPERATION_TYPES) },
    operationResultTypeId: { type: 'integer', labels: labelsOf(OPERATION_RESULT_TYPES) },
    created: { type: 'datetime' },
    modified: { type: 'datetime' },
  },
  defaultOrderBy: 'name asc',
});

export const packageVersionsResource = defineResource({
  table: 'package_version',
  key: 'packageVersionId',
  fields: {
    packageVersionId: { type: 'guid' },
    packageId: { type: 'guid' },
    version: { type: 'string' },
    label: { type: 'string' },
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
    packageVersionStatusId: { type: 'integer', labels: labelsOf(PACKAGE_VERSION_STATUSES) },
    fileName: { type: 'string' },
    fileSize: { type: 'integer' },
    fileSha256: { type: 'string' },
  },
  defaultOrderBy: 'created desc',
});

/**
 * A package, described once on its contract: GET v1/packages by name, with its tenant, operations
 * and versions to expand; one package; and the columns an input writes. The parameter definitions
 * are stored as the JSON the input held (the schema checked it) and read back as the contract's.
 */
export const packageEntity = defineEntity({
  table: 'package',
  key: 'packageId',
  contract: packageSchema,
  writable: packageInputSchema,
  columns: { operatingSystemRidsId: 'operating_system_ids' },
  computed: {
    parameterDefinitions: {
      sql: (col) => col('parameter_definitions'),
      value: (row) => row.parameter_definitions as Package['parameterDefinitions'],
      write: (value) => ({ parameter_definitions: JSON.stringify(value) }),
    },
  },
  fields: {
    packageTypeId: { labels: labelsOf(PACKAGE_TYPES) },
    executableTypeId: { labels: labelsOf(EXECUTABLE_TYPES) },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
    operations: { kind: 'many', resource: () => operationsResource, column: 'package_id' },
    versions: { kind: 'many', resource: () => packageVersionsResource, column: 'package_id' },
  },
  defaultOrderBy: 'name asc',
});

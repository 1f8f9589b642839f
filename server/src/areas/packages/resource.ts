import {
  EXECUTABLE_TYPES,
  OPERATION_RESULT_TYPES,
  OPERATION_TYPES,
  PACKAGE_TYPES,
  PACKAGE_VERSION_STATUSES,
} from '@cfs/contracts/fleet';
import {
  intervalToSeconds,
  operationInputSchema,
  operationSchema,
  packageInputSchema,
  packageSchema,
  packageVersionSchema,
  type Operation,
  type Package,
} from '@cfs/contracts/packages';
import { formatInterval } from '@cfs/contracts/device-operations';
import { defineEntity } from '../../odata/entity.js';
import { timeSpanSql } from '../../odata/resource.js';
import { tenantReference } from '../../odata/references.js';

const labelsOf = (values: Record<string, number>) =>
  Object.fromEntries(Object.entries(values).map(([label, id]) => [id, label]));

/**
 * A package's operation, described once on its contract: `$expand=operations` of the packages list,
 * the package's drawer, and the columns an input writes (a create also writes its package). The
 * default interval is stored in seconds and shown as the spec writes intervals (HH:mm:ss); the
 * parameter definitions are stored as the JSON the input held (the schema checked it).
 */
export const operationEntity = defineEntity({
  table: 'operation',
  key: 'operationId',
  contract: operationSchema,
  writable: operationInputSchema,
  columns: { frequencyDefinitions: 'frequency_type_ids', operationType: 'operation_type_id' },
  computed: {
    parameterDefinitions: {
      sql: (col) => col('parameter_definitions'),
      value: (row) => row.parameter_definitions as Operation['parameterDefinitions'],
      write: (value) => ({ parameter_definitions: JSON.stringify(value) }),
    },
    defaultInterval: {
      sql: (col) => timeSpanSql(col('default_interval_seconds')),
      value: (row) => formatInterval(row.default_interval_seconds),
      write: (value) => ({ default_interval_seconds: intervalToSeconds(value) ?? 0 }),
    },
  },
  fields: {
    defaultInterval: { filterable: false, sortable: false },
    operationType: { labels: labelsOf(OPERATION_TYPES) },
    operationResultTypeId: { labels: labelsOf(OPERATION_RESULT_TYPES) },
  },
  defaultOrderBy: 'name asc',
});

/** A package's version, described on its contract: `$expand=versions` of the packages list and the drawer; uploads write it (versions.ts). */
export const packageVersionEntity = defineEntity({
  table: 'package_version',
  key: 'packageVersionId',
  contract: packageVersionSchema,
  fields: {
    packageVersionStatusId: { labels: labelsOf(PACKAGE_VERSION_STATUSES) },
    fileSize: { type: 'integer' },
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
    operations: { kind: 'many', resource: () => operationEntity.resource, column: 'package_id' },
    versions: { kind: 'many', resource: () => packageVersionEntity.resource, column: 'package_id' },
  },
  defaultOrderBy: 'name asc',
});

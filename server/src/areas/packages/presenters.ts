import type { Selectable } from 'kysely';
import { secondsToInterval, type Operation, type PackageVersion } from '@cfs/contracts/packages';
import type { DB as Database } from '../../db/schema.js';

export const presentOperation = (row: Selectable<Database['operation']>): Operation => ({
  operationId: row.operation_id,
  packageId: row.package_id,
  name: row.name,
  description: row.description,
  parameterDefinitions: row.parameter_definitions as Record<string, unknown>[],
  frequencyDefinitions: row.frequency_type_ids,
  defaultInterval: secondsToInterval(row.default_interval_seconds),
  operationType: row.operation_type_id,
  operationResultTypeId: row.operation_result_type_id,
  created: row.created,
  modified: row.modified,
});

export const presentVersion = (row: Selectable<Database['package_version']>): PackageVersion => ({
  packageVersionId: row.package_version_id,
  packageId: row.package_id,
  version: row.version,
  label: row.label,
  created: row.created,
  createdBy: row.created_by,
  packageVersionStatusId: row.package_version_status_id,
  fileName: row.file_name,
  fileSize: row.file_size,
  fileSha256: row.file_sha256,
});

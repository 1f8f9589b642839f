import { sql } from 'kysely';
import {
  OPERATION_LOG_LIMIT,
  SCRIPT_RUN_LIMIT,
  type DeviceOperation,
  type PacketInfo,
  type Operation,
  type OperationLogEntry,
  type ScriptRun,
} from '@cfs/contracts/device-operations';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { orNotFound } from '../../http/errors.js';
import { deviceOperationEntity, operationEntity } from './resources.js';

/**
 * The caller's device operations with `packet_info`, the latest packet whose entity is the device
 * operation ({ value, age: its timestamp }), read in the same statement (`deviceOperationEntity`'s
 * joined field).
 */
export function deviceOperationsBase(db: Db, scope: TenantScope) {
  const latest = scoped(db, scope)
    .selectFrom('packet_latest as pl')
    .select(sql<PacketInfo>`json_build_object('value', pl.message -> 'Value', 'age', to_json(pl.timestamp))`.as('info'))
    .where(sql<boolean>`pl.entity_id = device_operation.device_operation_id`);
  return scoped(db, scope)
    .selectFrom('device_operation')
    .selectAll()
    .select(sql<PacketInfo | null>`(${latest})`.as('packet_info'));
}

/**
 * Operations of the packages a tenant can use (its own and the tenantless ones) that support the
 * operating system; `total_before_filtering` counts them before the grid's $filter applies.
 */
export function availableOperationsBase(db: Db, scope: TenantScope, tenantId: string, operatingSystemId: number) {
  const packages = scoped(db, scope)
    .selectFrom('package')
    .select('package_id')
    .where((eb) => eb.or([eb('tenant_id', 'is', null), eb('tenant_id', '=', tenantId)]))
    .where(sql<boolean>`${operatingSystemId}::smallint = ANY(package.operating_system_ids)`);
  return db
    .selectFrom('operation')
    .selectAll()
    .select(sql<number>`(count(*) OVER ())::int`.as('total_before_filtering'))
    .where('package_id', 'in', packages);
}

/** One device operation (not deleted) with its operation and package. */
export async function findDeviceOperation(db: Db, scope: TenantScope, id: string): Promise<DeviceOperation> {
  const row = orNotFound(
    await deviceOperationsBase(db, scope)
      .where('device_operation_id', '=', id)
      .where('is_deleted', '=', false)
      .executeTakeFirst(),
    'The device operation',
  );
  const operation = await findOperation(db, scope, row.operation_id);
  return { ...deviceOperationEntity.present(row), ...(operation ? { operation } : {}) };
}

/** An operation with its package, when the package is one the scope sees. */
async function findOperation(db: Db, scope: TenantScope, operationId: string): Promise<Operation | undefined> {
  const row = await scoped(db, scope)
    .selectFrom('package as p')
    .innerJoin('operation as o', 'o.package_id', 'p.package_id')
    .selectAll('o')
    .select(['p.name as package_name', 'p.tenant_id as package_tenant_id'])
    .where('o.operation_id', '=', operationId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...operationEntity.present(row),
    package: { packageId: row.package_id, name: row.package_name, tenantId: row.package_tenant_id },
  };
}

/** GET v1/deviceOperations/{id}/logs: newest first, at most OPERATION_LOG_LIMIT. */
/** Throws 404 unless the device operation is one the caller may read. */
async function deviceOperationThere(db: Db, scope: TenantScope, id: string): Promise<void> {
  orNotFound(
    await scoped(db, scope)
      .selectFrom('device_operation')
      .select('device_operation_id')
      .where('device_operation_id', '=', id)
      .executeTakeFirst(),
    'The device operation',
  );
}

export async function findOperationLogs(db: Db, scope: TenantScope, id: string): Promise<OperationLogEntry[]> {
  await deviceOperationThere(db, scope, id);
  const rows = await scoped(db, scope)
    .selectFrom('operation_log')
    .select(['log_entry_id', 'created', 'entry_type', 'detail'])
    .where('device_operation_id', '=', id)
    .orderBy('created', 'desc')
    .orderBy('log_entry_id', 'desc')
    .limit(OPERATION_LOG_LIMIT)
    .execute();
  return rows.map((row) => ({
    logEntryId: Number(row.log_entry_id),
    created: row.created,
    entryType: row.entry_type,
    detail: row.detail,
  }));
}

/** GET v1/deviceOperations/{id}/scriptruns: the operation's latest script runs, newest first. */
export async function findScriptRuns(db: Db, scope: TenantScope, id: string): Promise<ScriptRun[]> {
  await deviceOperationThere(db, scope, id);
  const rows = await scoped(db, scope)
    .selectFrom('script_run')
    .selectAll()
    .where('device_operation_id', '=', id)
    .orderBy('script_run_id', 'desc')
    .limit(SCRIPT_RUN_LIMIT)
    .execute();
  return rows.map((row) => ({
    scriptRunId: Number(row.script_run_id),
    received: row.received,
    started: row.started,
    durationMs: row.duration_ms,
    sha256: row.sha256,
    exitCode: row.exit_code,
    timedOut: row.timed_out,
    refused: row.refused,
    stdout: row.stdout,
    stderr: row.stderr,
    truncated: row.truncated,
  }));
}

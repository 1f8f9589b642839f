import { randomUUID } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import {
  DEVICE_OPERATION_MESSAGES as M,
  FREQUENCY_LABELS,
  parameterDefinitionSchema,
  type CloneDeviceOperations,
  type DeviceOperationInput,
  type ParameterDefinition,
  type RunScript,
  type ScriptDispatch,
} from '@cfs/contracts/device-operations';
import { SCRIPT_TIMEOUT_PARAMETER } from '@cfs/contracts/agent';
import { FLEET_MESSAGES, FREQUENCY_TYPES, OPERATION_TYPES } from '@cfs/contracts/fleet';
import { z } from 'zod';
import { changedFields, entityAudit, recordAudit } from '../../audit/audit.js';
import { requireHostAccess } from '../../auth/host-access.js';
import type { Principal } from '../../auth/principal.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped, type ScopedDb } from '../../db/scoped.js';
import { recordCreatedEntities } from '../../engines/ingestion/entity-owners.js';
import type { DB as Database } from '../../db/schema.js';
import { BadRequestError, orNotFound } from '../../http/errors.js';
import { deviceOperationEntity } from './resources.js';

type Errors = Record<string, string[]>;

/** A 400 whose message is the first field text, so a toast of the message says what is wrong. */
function refuse(errors: Errors): never {
  const first = Object.values(errors)[0]?.[0] ?? M.saveFailed;
  throw new BadRequestError(first, errors);
}

async function lockDevice(tx: ScopedDb<Tx>, deviceId: string, field: string) {
  const device = await tx
    .selectFrom('device')
    .select(['device_id', 'tenant_id', 'operating_system_id', 'name'])
    .where('device_id', '=', deviceId)
    .where('is_deleted', '=', false)
    .forShare()
    .executeTakeFirst();
  if (!device) refuse({ [field]: [M.deviceNotFound] });
  return device;
}

/** Records an action on the device operation in the change history, in the write's transaction. */
const recordChange = entityAudit(
  'deviceOperation',
  (row: { device_operation_id: string; tenant_id: string }) => row.device_operation_id,
);

async function lockDeviceOperation(tx: ScopedDb<Tx>, id: string) {
  return orNotFound(
    await tx
      .selectFrom('device_operation')
      .selectAll()
      .where('device_operation_id', '=', id)
      .where('is_deleted', '=', false)
      .forUpdate()
      .executeTakeFirst(),
    'The device operation',
  );
}

const definitionsSchema = z.array(parameterDefinitionSchema).catch([]);

/**
 * The spec's rules that need the operation and the tenant (§5): a frequency the operation allows,
 * every required parameter given, and each SecuredValue naming a secret of the device's tenant.
 * The shape (label, interval, sources) is the contract's schema, checked before this.
 */
async function checkAgainstOperation(
  tx: ScopedDb<Tx>,
  user: Principal,
  tenantId: string,
  input: DeviceOperationInput,
): Promise<void> {
  const operation = await tx
    .selectFrom('package as p')
    .innerJoin('operation as o', 'o.package_id', 'p.package_id')
    .select(['o.frequency_type_ids', 'o.parameter_definitions', 'o.operation_type_id'])
    .where('o.operation_id', '=', input.operationId)
    .where((eb) => eb.or([eb('p.tenant_id', 'is', null), eb('p.tenant_id', '=', tenantId)]))
    .executeTakeFirst();
  if (!operation) refuse({ operationId: [M.operationNotFound] });
  requireHostAccess(user, [operation.operation_type_id]);
  const errors: Errors = {};
  if (!operation.frequency_type_ids.includes(input.frequencyTypeId)) errors.frequencyTypeId = [M.frequencyNotAllowed];
  const definitions: ParameterDefinition[] = definitionsSchema.parse(operation.parameter_definitions);
  const given = new Map(input.parameters.map((parameter) => [parameter.Name, parameter]));
  const missing = definitions
    .filter((definition) => definition.Required && !given.get(definition.Name)?.Value?.trim())
    .map((definition) => M.parameterRequired(definition.Name));
  const secretNames = input.parameters
    .filter((parameter) => parameter.Source === 'SecuredValue')
    .map((parameter) => parameter.Value?.trim() ?? '');
  const known = secretNames.some(Boolean)
    ? new Set(
        (
          await tx
            .selectFrom('tenant_secret')
            .select('name')
            .where('tenant_id', '=', tenantId)
            .where('name', 'in', secretNames.filter(Boolean))
            .execute()
        ).map((row) => row.name),
      )
    : new Set<string>();
  const unknownSecrets = secretNames.filter((name) => name && !known.has(name)).map((name) => M.secretNotFound(name));
  if (missing.length + unknownSecrets.length > 0) errors.parameters = [...missing, ...unknownSecrets];
  if (Object.keys(errors).length > 0) refuse(errors);
}

/** What the audit trail keeps of a device operation (parameter values are names, never secret values). */
const audited = (row: Selectable<Database['device_operation']>) => ({
  label: row.label,
  operationId: row.operation_id,
  enabled: row.enabled,
  frequency: FREQUENCY_LABELS[row.frequency_type_id] ?? row.frequency_type_id,
  intervalSeconds: row.interval_seconds,
  isInteractive: row.is_interactive,
  parameters: row.parameters,
});

/** The operation types of these catalogue operations (the tenant's own packages' or the shared ones). */
async function operationTypesOf(tx: ScopedDb<Tx>, operationIds: readonly string[]): Promise<number[]> {
  if (operationIds.length === 0) return [];
  const rows = await tx
    .selectFrom('package as p')
    .innerJoin('operation as o', 'o.package_id', 'p.package_id')
    .select('o.operation_type_id')
    .where('o.operation_id', 'in', [...operationIds])
    .execute();
  return rows.map((row) => row.operation_type_id);
}

/**
 * A new device operation of `device`, with its packets' owner and its audit entry: what PUT
 * v1/deviceOperations makes, and what Run Script makes where a device has none (`extra`: queued).
 */
async function insertDeviceOperation(
  trx: Tx,
  user: Principal,
  device: { device_id: string; tenant_id: string },
  input: DeviceOperationInput,
  extra: Partial<Insertable<Database['device_operation']>> = {},
): Promise<string> {
  const row = await scoped(trx, user.tenantScope)
    .insertInto('device_operation', {
      ...deviceOperationEntity.writeColumns(input),
      ...extra,
      device_id: device.device_id,
      tenant_id: device.tenant_id,
      created_by: user.userName,
      modified_by: user.userName,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // The operation reports its results as packets under its id: the device's tenant owns it.
  await recordCreatedEntities(trx, row.tenant_id, [row.device_operation_id]);
  await recordChange(trx, user, row, 'create', audited(row));
  return row.device_operation_id;
}

/** PUT v1/deviceOperations: returns the new id. */
export async function createDeviceOperation(db: Db, user: Principal, input: DeviceOperationInput): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const device = await lockDevice(tx, input.deviceId, 'deviceId');
    await checkAgainstOperation(tx, user, device.tenant_id, input);
    return insertDeviceOperation(trx, user, device, input);
  });
}

/** A queued run (spec 002 §4): a fresh completion token, not complete yet. */
const queuedRun = () => ({ completion_token: randomUUID(), operation_complete: false });

/** POST v1/deviceOperations/{id}: the whole device operation (also how it is disabled). */
export async function updateDeviceOperation(
  db: Db,
  user: Principal,
  id: string,
  input: DeviceOperationInput,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = await lockDeviceOperation(tx, id);
    if (input.deviceId !== before.device_id) refuse({ deviceId: [M.deviceFixed] });
    await checkAgainstOperation(tx, user, before.tenant_id, input);
    const columns = deviceOperationEntity.writeColumns(input);
    // A queued on-demand run stays queued only while the operation is still on demand.
    const queue = input.frequencyTypeId === FREQUENCY_TYPES.OnDemand ? {} : { completion_token: null };
    const row = await tx
      .updateTable('device_operation')
      .set({ ...columns, ...queue, modified: new Date(), modified_by: user.userName })
      .where('device_operation_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordChange(trx, user, row, 'update', changedFields(audited(before), audited(row)));
  });
}

/** DELETE v1/deviceOperations/{id}: kept as deleted, so its logs and packets still name it. */
export async function deleteDeviceOperation(db: Db, user: Principal, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = await lockDeviceOperation(tx, id);
    await tx
      .updateTable('device_operation')
      .set({
        is_deleted: true,
        enabled: false,
        completion_token: null,
        modified: new Date(),
        modified_by: user.userName,
      })
      .where('device_operation_id', '=', id)
      .execute();
    await recordChange(trx, user, before, 'delete', { label: before.label });
  });
}

/**
 * Enqueue and Dequeue (spec 002 §4), for OnDemand operations only: a queued run is a fresh
 * completion token with operationComplete false; the agent completes it, Dequeue withdraws it.
 */
export async function setQueued(db: Db, user: Principal, id: string, queued: boolean): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const before = await lockDeviceOperation(tx, id);
    if (before.frequency_type_id !== FREQUENCY_TYPES.OnDemand) throw new BadRequestError(M.onlyOnDemand);
    if (queued) requireHostAccess(user, await operationTypesOf(tx, [before.operation_id]));
    const set = queued ? queuedRun() : { completion_token: null };
    await tx
      .updateTable('device_operation')
      .set({ ...set, modified: new Date(), modified_by: user.userName })
      .where('device_operation_id', '=', id)
      .execute();
    await recordChange(trx, user, before, queued ? 'enqueue' : 'dequeue', { label: before.label });
  });
}

/** POST v1/deviceOperations/clone (spec 002 §5): copies the chosen operations of one device to another of its tenant. */
export async function cloneDeviceOperations(
  db: Db,
  user: Principal,
  input: CloneDeviceOperations,
): Promise<{ message: string; deviceOperationIds: string[] }> {
  const ids = [
    ...new Set(
      input.deviceOperationIdsToClone
        .split(',')
        .map((id) => id.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) refuse({ deviceOperationIdsToClone: [M.cloneOperationsRequired] });
  if (input.toDeviceId === input.fromDeviceId) refuse({ toDeviceId: [M.cloneTargetIsSource] });
  if (ids.some((id) => !z.uuid().safeParse(id).success))
    refuse({ deviceOperationIdsToClone: [M.cloneOperationNotOfSource] });
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const source = await lockDevice(tx, input.fromDeviceId, 'fromDeviceId');
    const target = await lockDevice(tx, input.toDeviceId, 'toDeviceId');
    if (target.tenant_id !== source.tenant_id) refuse({ toDeviceId: [M.cloneTargetTenant] });
    const rows = await tx
      .selectFrom('device_operation')
      .selectAll()
      .where('device_id', '=', source.device_id)
      .where('device_operation_id', 'in', ids)
      .where('is_deleted', '=', false)
      .orderBy('label')
      .execute();
    if (rows.length !== ids.length) refuse({ deviceOperationIdsToClone: [M.cloneOperationNotOfSource] });
    requireHostAccess(
      user,
      await operationTypesOf(
        tx,
        rows.map((row) => row.operation_id),
      ),
    );
    const copies = await tx
      .insertInto(
        'device_operation',
        rows.map((row) => ({
          tenant_id: target.tenant_id,
          device_id: target.device_id,
          operation_id: row.operation_id,
          label: row.label,
          reference_id: row.reference_id,
          global_setting_id: row.global_setting_id,
          enabled: row.enabled,
          frequency_type_id: row.frequency_type_id,
          interval_seconds: row.interval_seconds,
          is_interactive: row.is_interactive,
          parameters: JSON.stringify(row.parameters),
          created_by: user.userName,
          modified_by: user.userName,
        })),
      )
      .returningAll()
      .execute();
    await recordCreatedEntities(
      trx,
      target.tenant_id,
      copies.map((copy) => copy.device_operation_id),
    );
    for (const copy of copies) {
      await recordChange(trx, user, copy, 'clone', { ...audited(copy), fromDeviceId: source.device_id });
    }
    return {
      message: FLEET_MESSAGES.deviceOperationsCloned,
      deviceOperationIds: copies.map((copy) => copy.device_operation_id),
    };
  });
}

/**
 * POST v1/deviceOperations/runScript: a Script operation queued on each chosen device of the
 * caller's — its on-demand device operation of that script (made, labelled with the operation's
 * name, when it has none), with the timeout given — in one transaction. A device where the
 * script's package is not installed is left as it is and said so; one the caller cannot see, or of
 * a tenant the operation is not for, refuses the whole call.
 */
export async function runScriptOnDevices(db: Db, user: Principal, input: RunScript): Promise<ScriptDispatch[]> {
  requireHostAccess(user, [OPERATION_TYPES.Script]);
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const operation = await trx
      .selectFrom('operation')
      .select(['operation_id', 'package_id', 'name', 'operation_type_id'])
      .where('operation_id', '=', input.operationId)
      .executeTakeFirst();
    if (!operation) refuse({ operationId: [M.operationNotFound] });
    if (operation.operation_type_id !== OPERATION_TYPES.Script) refuse({ operationId: [M.notAScript] });
    const parameters =
      input.timeoutSeconds === undefined
        ? []
        : [{ Name: SCRIPT_TIMEOUT_PARAMETER, Source: 'PortalEntry' as const, Value: String(input.timeoutSeconds) }];
    const dispatched: ScriptDispatch[] = [];
    for (const deviceId of [...new Set(input.deviceIds.map((id) => id.toLowerCase()))].sort()) {
      const device = await lockDevice(tx, deviceId, 'deviceIds');
      const request: DeviceOperationInput = {
        deviceId,
        operationId: operation.operation_id,
        label: operation.name,
        referenceId: null,
        globalSettingId: null,
        enabled: true,
        frequencyTypeId: FREQUENCY_TYPES.OnDemand,
        interval: '00:05:00',
        isInteractive: false,
        parameters,
      };
      await checkAgainstOperation(tx, user, device.tenant_id, request);
      const installed = await tx
        .selectFrom('device_installation')
        .select('installed_package_version_id')
        .where('device_id', '=', deviceId)
        .where('package_id', '=', operation.package_id)
        .executeTakeFirst();
      const base = { deviceId, deviceName: device.name };
      if (!installed?.installed_package_version_id) {
        dispatched.push({ ...base, deviceOperationId: null, queued: false, message: M.scriptNotInstalled });
        continue;
      }
      const existing = await tx
        .selectFrom('device_operation')
        .select('device_operation_id')
        .where('device_id', '=', deviceId)
        .where('operation_id', '=', operation.operation_id)
        .where('frequency_type_id', '=', FREQUENCY_TYPES.OnDemand)
        .where('is_deleted', '=', false)
        .where('enabled', '=', true)
        .orderBy('created')
        .limit(1)
        .forUpdate()
        .executeTakeFirst();
      let deviceOperationId: string;
      if (existing) {
        deviceOperationId = existing.device_operation_id;
        await tx
          .updateTable('device_operation')
          .set({
            ...queuedRun(),
            ...(input.timeoutSeconds === undefined ? {} : { parameters: JSON.stringify(parameters) }),
            modified: new Date(),
            modified_by: user.userName,
          })
          .where('device_operation_id', '=', deviceOperationId)
          .execute();
      } else {
        deviceOperationId = await insertDeviceOperation(trx, user, device, request, queuedRun());
      }
      await recordAudit(trx, user, {
        entityType: 'deviceOperation',
        entityId: deviceOperationId,
        tenantId: device.tenant_id,
        action: 'enqueue',
        changes: {
          label: operation.name,
          ...(input.timeoutSeconds === undefined ? {} : { timeoutSeconds: input.timeoutSeconds }),
        },
      });
      dispatched.push({ ...base, deviceOperationId, queued: true, message: M.scriptQueued });
    }
    return dispatched;
  });
}

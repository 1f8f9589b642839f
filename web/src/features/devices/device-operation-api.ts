import { useQuery } from '@tanstack/react-query';
import type {
  AvailableOperation as AvailableOperationEntity,
  CloneDeviceOperations,
  DeviceOperation as DeviceOperationEntity,
  DeviceOperationInput,
  Operation as OperationEntity,
  OperationLogEntry as OperationLogEntryEntity,
  RunScript,
  ScriptDispatch,
  ScriptRun as ScriptRunEntity,
} from '@cfs/contracts/device-operations';
import type { ListResponse } from '@cfs/contracts/api';
import { FLEET_MESSAGES, OPERATING_SYSTEMS, OPERATION_TYPES } from '@cfs/contracts/fleet';
import { apiGet, apiSend } from '../../lib/api-client';
import { notFoundError, pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { listQueryKey } from '../../lib/list-api';
import { useApiMutation } from '../../lib/mutations';

/** Device operations of a device (spec 002 §7 "Device operations (base v1/deviceOperations)"). */
export const DEVICE_OPERATIONS_PATH = '/v1/deviceOperations';

export type DeviceOperation = JsonOf<DeviceOperationEntity>;
export type Operation = JsonOf<OperationEntity>;
export type AvailableOperation = JsonOf<AvailableOperationEntity>;
export type OperationLogEntry = JsonOf<OperationLogEntryEntity>;
export type ScriptRun = JsonOf<ScriptRunEntity>;

/** GET v1/operations/GetAvailableOperationsForDevice(tenantId,operatingSystemId): the picker's list path. */
export function availableOperationsPath(tenantId: string, operatingSystemId: number): string {
  return `/v1/operations/GetAvailableOperationsForDevice(tenantId=${pathId(tenantId)},operatingSystemId=${operatingSystemId})`;
}

const invalidate = [listQueryKey(DEVICE_OPERATIONS_PATH)];
/** "The server's error text is shown" (spec 002 §8). */
const serverText = (error: Error) => error.message;

/** A device operation as the create and update calls take it. */
export function toInput(row: DeviceOperation, changes: Partial<DeviceOperationInput> = {}): DeviceOperationInput {
  return {
    deviceId: row.deviceId,
    operationId: row.operationId,
    label: row.label,
    referenceId: row.referenceId,
    globalSettingId: row.globalSettingId,
    enabled: row.enabled,
    frequencyTypeId: row.frequencyTypeId,
    interval: row.interval,
    isInteractive: row.isInteractive,
    parameters: row.parameters,
    ...changes,
  };
}

/** `PUT v1/deviceOperations` (id null) or `POST v1/deviceOperations/{id}`. */
export function useSaveDeviceOperation(id: string | null) {
  return useApiMutation({
    mutationFn: (input: DeviceOperationInput) =>
      id === null
        ? apiSend<DeviceOperation>('PUT', DEVICE_OPERATIONS_PATH, input)
        : apiSend<DeviceOperation>('POST', `${DEVICE_OPERATIONS_PATH}/${pathId(id)}`, input),
    invalidate,
    successMessage: id === null ? FLEET_MESSAGES.deviceOperationCreated : FLEET_MESSAGES.deviceOperationUpdated,
    errorMessage: serverText,
  });
}

/** Disable Operation (spec 002 §4): the update call with enabled false. */
export function useDisableDeviceOperation() {
  return useApiMutation({
    mutationFn: (row: DeviceOperation) =>
      apiSend<DeviceOperation>(
        'POST',
        `${DEVICE_OPERATIONS_PATH}/${pathId(row.deviceOperationId)}`,
        toInput(row, { enabled: false }),
      ),
    invalidate,
    successMessage: FLEET_MESSAGES.deviceOperationDisabled,
    errorMessage: serverText,
  });
}

/** Enqueue or Dequeue an OnDemand operation. */
export function useQueueDeviceOperation() {
  return useApiMutation({
    mutationFn: ({ row, queued }: { row: DeviceOperation; queued: boolean }) =>
      apiSend<DeviceOperation>(
        'POST',
        `${DEVICE_OPERATIONS_PATH}/${pathId(row.deviceOperationId)}/${queued ? 'enqueueOnDemand' : 'dequeueOnDemand'}`,
      ),
    invalidate,
    successMessage: (_result, { queued }) =>
      queued ? FLEET_MESSAGES.deviceOperationEnqueued : FLEET_MESSAGES.deviceOperationDequeued,
    errorMessage: serverText,
  });
}

export function useDeleteDeviceOperation() {
  return useApiMutation({
    mutationFn: (row: DeviceOperation) =>
      apiSend<undefined>('DELETE', `${DEVICE_OPERATIONS_PATH}/${pathId(row.deviceOperationId)}`),
    invalidate,
    successMessage: FLEET_MESSAGES.deviceOperationDeleted,
    errorMessage: serverText,
  });
}

/** `POST v1/deviceOperations/clone`: the server's message, or the spec's. */
export function useCloneDeviceOperations() {
  return useApiMutation({
    mutationFn: (input: CloneDeviceOperations) =>
      apiSend<{ message?: string }>('POST', `${DEVICE_OPERATIONS_PATH}/clone`, input),
    invalidate,
    successMessage: (result) => result.message ?? FLEET_MESSAGES.deviceOperationsCloned,
    errorMessage: serverText,
  });
}

/** GET v1/deviceOperations/{id}/logs; `refetchInterval` for Auto-Refresh (30 sec). */
/** One of a device operation's own lists (`logs`, `scriptruns`), read again every `refetchInterval`. */
function useDeviceOperationPart<T>(id: string | null, part: 'logs' | 'scriptruns', refetchInterval: number | false) {
  return useQuery({
    queryKey: ['deviceOperation', id ?? '', part],
    queryFn: ({ signal }) =>
      isGuid(id)
        ? apiGet<T[]>(`${DEVICE_OPERATIONS_PATH}/${pathId(id)}/${part}`, undefined, { signal })
        : Promise.reject(notFoundError()),
    enabled: id !== null,
    refetchInterval,
  });
}

export function useOperationLogs(id: string | null, refetchInterval: number | false) {
  return useDeviceOperationPart<OperationLogEntry>(id, 'logs', refetchInterval);
}

/** A Script operation's runs, newest first, with their exit codes and output. */
export function useScriptRuns(id: string | null, refetchInterval: number | false) {
  return useDeviceOperationPart<ScriptRun>(id, 'scriptruns', refetchInterval);
}

/**
 * The Script operations the tenant's devices can run, Linux's and Windows' together, by name: what
 * Run Script offers.
 */
export function useScriptOperations(tenantId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['scriptOperations', tenantId],
    enabled,
    queryFn: async ({ signal }) => {
      const query = {
        $filter: `operationType eq ${OPERATION_TYPES.Script}`,
        $top: '100',
        $orderby: 'name',
        $expand: 'package',
      };
      const answers = await Promise.all(
        [OPERATING_SYSTEMS.LinuxX64, OPERATING_SYSTEMS.WinX64].map((system) =>
          apiGet<ListResponse<AvailableOperation>>(availableOperationsPath(tenantId, system), query, { signal }),
        ),
      );
      const byId = new Map(answers.flatMap((answer) => answer.value).map((row) => [row.operationId, row]));
      return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
  });
}

/** Run Script: a Script operation queued on several devices, each answered queued or not, and why. */
export function useRunScript() {
  return useApiMutation({
    mutationFn: (input: RunScript) =>
      apiSend<JsonOf<ScriptDispatch>[]>('POST', `${DEVICE_OPERATIONS_PATH}/runScript`, input),
    invalidate,
    errorMessage: serverText,
  });
}

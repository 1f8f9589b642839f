import { useQuery } from '@tanstack/react-query';
import {
  DEVICE_MESSAGES,
  type Device as DeviceEntity,
  type DeviceInput,
  type DeviceInstallation,
  type DeviceInventory as DeviceInventoryEntity,
  type InstallationChoice,
  type LogEntry as LogEntryEntity,
} from '@cfs/contracts/devices';
import { FLEET_MESSAGES } from '@cfs/contracts/fleet';
import type { LocationLookup } from '@cfs/contracts/locations';
import { apiGet, apiSend } from '../../lib/api-client';
import { notFoundError, pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { listQueryKey } from '../../lib/list-api';
import { lookupKeys } from '../../lib/lookups';
import { useApiMutation } from '../../lib/mutations';

/** Devices and their installations (spec 002 §7 Devices and installations). */
export const DEVICES_PATH = '/v1/devices';

export type Device = JsonOf<DeviceEntity>;
export type LogEntry = JsonOf<LogEntryEntity>;
export type DeviceInventory = JsonOf<DeviceInventoryEntity>;
export type { DeviceInstallation };

const deviceKey = (id: string) => ['device', id] as const;
const installationsKey = (id: string) => ['device', id, 'installations'] as const;
const invalidate = [listQueryKey(DEVICES_PATH), ['device']];

/** The id comes from the address (`?deviceId=`): checked, and encoded into the path. */
export function useDevice(id: string | null) {
  return useQuery({
    queryKey: deviceKey(id ?? ''),
    queryFn: ({ signal }) =>
      isGuid(id)
        ? apiGet<Device>(`${DEVICES_PATH}/${pathId(id)}`, undefined, { signal })
        : Promise.reject(notFoundError()),
    enabled: id !== null,
  });
}

export function useSaveDevice(id: string) {
  return useApiMutation({
    mutationFn: (input: DeviceInput) => apiSend<Device>('POST', `${DEVICES_PATH}/${pathId(id)}`, input),
    invalidate,
    successMessage: DEVICE_MESSAGES.saved,
    errorMessage: FLEET_MESSAGES.saveDeviceFailed,
  });
}

/** The server's refusal ("…because it has operations assigned to it.") is the toast. */
export function useDeleteDevice() {
  return useApiMutation({
    mutationFn: (device: Device) =>
      apiSend<{ message: string }>('DELETE', `${DEVICES_PATH}/${pathId(device.deviceId)}`),
    invalidate,
    successMessage: (_result, device) => FLEET_MESSAGES.deviceDeleted(device.name),
    // The refusal's text comes from the server, naming the device.
    errorMessage: (error) => error.message,
  });
}

export function useRestartAgent() {
  return useApiMutation({
    mutationFn: (device: Device) =>
      apiSend<{ message: string }>(
        'POST',
        `${DEVICES_PATH}/${pathId(device.deviceId)}/restartagent?__tenant__=${encodeURIComponent(device.tenantId)}`,
      ),
    invalidate,
    successMessage: (_result, device) => FLEET_MESSAGES.restartQueued(device.name),
    errorMessage: FLEET_MESSAGES.restartFailed,
  });
}

export function useToggleTrace(id: string) {
  return useApiMutation({
    mutationFn: (minutes: number) => apiSend<Device>('POST', `${DEVICES_PATH}/${pathId(id)}/toggleTrace/${minutes}`),
    invalidate,
    successMessage: DEVICE_MESSAGES.tracingSaved,
    errorMessage: FLEET_MESSAGES.saveTracingFailed,
  });
}

/** GET v1/devices/{id}/logs; `refetchInterval` for the drawer's Auto-Refresh (30 sec). */
export function useDeviceLogs(id: string | null, refetchInterval: number | false) {
  return useQuery({
    queryKey: ['device', id ?? '', 'logs'],
    queryFn: ({ signal }) =>
      isGuid(id)
        ? apiGet<LogEntry[]>(`${DEVICES_PATH}/${pathId(id)}/logs`, undefined, { signal })
        : Promise.reject(notFoundError()),
    enabled: id !== null,
    refetchInterval,
  });
}

export function useDeviceInstallations(id: string | null) {
  return useQuery({
    queryKey: installationsKey(id ?? ''),
    queryFn: ({ signal }) =>
      isGuid(id)
        ? apiGet<DeviceInstallation[]>(
            `${DEVICES_PATH}/GetPackageInstallsWithVersions(deviceId=${pathId(id)})`,
            undefined,
            { signal },
          )
        : Promise.reject(notFoundError()),
    enabled: id !== null,
  });
}

export function useSaveInstallations(id: string) {
  return useApiMutation({
    mutationFn: (choices: InstallationChoice[]) =>
      apiSend<DeviceInstallation[]>('POST', `/v1/deviceInstallations/${pathId(id)}/packages`, choices),
    invalidate: [installationsKey(id)],
    successMessage: DEVICE_MESSAGES.installationsSaved,
    errorMessage: FLEET_MESSAGES.saveInstallationsFailed,
  });
}

/** GET /api/generallookup/locations?tenantId=: the tenant's locations and the tenantless ones. */
export function useLocationsLookup(tenantId: string | null | undefined) {
  return useQuery({
    queryKey: [...lookupKeys.locations, tenantId ?? ''],
    queryFn: ({ signal }) =>
      apiGet<LocationLookup[]>('/api/generallookup/locations', isGuid(tenantId) ? { tenantId } : undefined, { signal }),
    enabled: isGuid(tenantId),
    staleTime: 60_000,
  });
}

/** GET /v1/devices/{id}/inventory: the device's hardware, operating system and software, and their latest changes. */
export function useDeviceInventory(id: string | null) {
  return useQuery({
    queryKey: ['device', id ?? '', 'inventory'],
    queryFn: ({ signal }) =>
      isGuid(id)
        ? apiGet<DeviceInventory>(`${DEVICES_PATH}/${pathId(id)}/inventory`, undefined, { signal })
        : Promise.reject(notFoundError()),
    enabled: id !== null,
  });
}

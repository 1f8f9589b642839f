import {
  PENDING_DEVICE_MESSAGES,
  type PendingDevice as PendingDeviceEntity,
  type PendingDeviceBatchResult,
} from '@cfs/contracts/pending-devices';
import { apiSend } from '../../lib/api-client';
import type { JsonOf } from '../../lib/json-types';
import { listQueryKey } from '../../lib/list-api';
import { useApiMutation } from '../../lib/mutations';

/** Pending devices (spec 002 §7 "Pending devices"). */
export const PENDING_DEVICES_PATH = '/v1/pendingdevices';
/** Promoted devices appear on the devices grid: its lists are refreshed too. */
const DEVICES_PATH = '/v1/devices';

export type PendingDevice = JsonOf<PendingDeviceEntity>;

const invalidate = [listQueryKey(PENDING_DEVICES_PATH), listQueryKey(DEVICES_PATH)];
/** The server's own text when it gives one (e.g. no subscription of the tenant), else the spec's. */
const failure = (fallback: string) => (error: Error) => error.message || fallback;

/** `POST v1/pendingdevices/batchpromote`: into the caller's current subscription. */
export function usePromotePendingDevices() {
  return useApiMutation({
    mutationFn: (ids: readonly string[]) =>
      apiSend<PendingDeviceBatchResult>('POST', `${PENDING_DEVICES_PATH}/batchpromote`, ids),
    invalidate,
    successMessage: (result) => PENDING_DEVICE_MESSAGES.promoted(result.count),
    errorMessage: failure(PENDING_DEVICE_MESSAGES.promoteFailed),
  });
}

/** `DELETE v1/pendingdevices/batchdelete`. */
export function useDeletePendingDevices() {
  return useApiMutation({
    mutationFn: (ids: readonly string[]) =>
      apiSend<PendingDeviceBatchResult>('DELETE', `${PENDING_DEVICES_PATH}/batchdelete`, ids),
    invalidate,
    successMessage: (result) => PENDING_DEVICE_MESSAGES.deleted(result.count),
    errorMessage: failure(PENDING_DEVICE_MESSAGES.deleteFailed),
  });
}

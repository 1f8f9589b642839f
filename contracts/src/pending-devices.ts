import { z } from 'zod';
import { guid } from './fields.js';
import { FLEET_LIMITS, FLEET_MESSAGES, OPERATING_SYSTEMS, type OperatingSystemId } from './fleet.js';

/** Pending devices (spec 002 §2 Pending devices, §3, §4, §5, §7, §8). */
export const PENDING_DEVICE_MESSAGES = {
  tooManySelected: FLEET_MESSAGES.tooManySelected,
  subscriptionRequired: "Please choose a subscription of the pending devices' tenant.",
  promoted: (count: number) => `${count} ${count === 1 ? 'device' : 'devices'} promoted.`,
  deleted: (count: number) => `${count} pending ${count === 1 ? 'device' : 'devices'} deleted.`,
  promoteConfirm: (count: number) =>
    `Promote ${count} pending ${count === 1 ? 'device' : 'devices'} into the current subscription?`,
  deleteConfirm: (count: number) =>
    `Delete ${count} pending ${count === 1 ? 'device' : 'devices'}? An agent that enrols again shows up again.`,
  promoteFailed: 'A problem occurred promoting the devices. Please try again.',
  deleteFailed: 'A problem occurred deleting the pending devices. Please try again.',
} as const;

export const pendingDeviceSchema = z.object({
  pendingDeviceId: z.uuid(),
  tenantId: z.uuid(),
  machineName: z.string(),
  operatingSystem: z.string().nullable(),
  architecture: z.string().nullable(),
  ipAddress: z.string().nullable(),
  created: z.date(),
  lastPing: z.date(),
});
export type PendingDevice = z.infer<typeof pendingDeviceSchema>;

/** A batch holds at least one and fewer than 25 (spec 002 §5). */
export function isBatchSizeAllowed(count: number): boolean {
  return count > 0 && count < FLEET_LIMITS.batchSelectionBelow;
}

const ids = z
  .array(guid(PENDING_DEVICE_MESSAGES.tooManySelected), { error: PENDING_DEVICE_MESSAGES.tooManySelected })
  .refine((list) => isBatchSizeAllowed(list.length), PENDING_DEVICE_MESSAGES.tooManySelected);

/**
 * The body of batchpromote and batchdelete: the selected ids (spec 002 §7), as a plain array or as
 * `{ pendingDeviceIds, subscriptionId? }`; promote puts them into `subscriptionId`, or the
 * caller's current subscription when none is given.
 */
export const pendingDeviceBatchSchema = z.preprocess(
  (body) => (Array.isArray(body) ? { pendingDeviceIds: body } : body),
  z.object({
    pendingDeviceIds: ids,
    subscriptionId: guid(PENDING_DEVICE_MESSAGES.subscriptionRequired).nullable().optional(),
  }),
);
export type PendingDeviceBatch = z.infer<typeof pendingDeviceBatchSchema>;

export const pendingDeviceBatchResultSchema = z.object({
  count: z.number().int(),
  /** Promote: the devices made, in the order of the ids sent. */
  deviceIds: z.array(z.uuid()),
});
export type PendingDeviceBatchResult = z.infer<typeof pendingDeviceBatchResultSchema>;

/**
 * An agent's operating system text mapped to OPERATING_SYSTEMS (by the words agents report:
 * "Windows", "win32", "Linux", "darwin", "macOS"…); anything else is Unknown.
 */
export function operatingSystemIdOf(text: string | null): OperatingSystemId {
  const value = (text ?? '').toLowerCase();
  if (/win/.test(value) && !/darwin/.test(value)) return OPERATING_SYSTEMS.WinX64;
  if (/darwin|mac|osx/.test(value)) return OPERATING_SYSTEMS.OsxX64;
  if (/linux|ubuntu|debian|centos|rhel|red hat|fedora|suse|alpine/.test(value)) return OPERATING_SYSTEMS.LinuxX64;
  return OPERATING_SYSTEMS.Unknown;
}

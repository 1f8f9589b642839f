import { DEVICE_LOGGING_LEVELS, DEVICE_TYPES, OPERATING_SYSTEMS } from '@cfs/contracts/fleet';
import { deviceInputSchema, deviceSchema } from '@cfs/contracts/devices';
import { defineEntity } from '../../odata/entity.js';
import { defineResource } from '../../odata/resource.js';
import { subscriptionReference, tenantReference } from '../../odata/references.js';

const labels = (values: Readonly<Record<string, number>>) =>
  Object.fromEntries(Object.entries(values).map(([label, id]) => [id, label]));

/** The name a device's location shows with (`$expand=location`): tenantless locations are every tenant's. */
const locationReference = defineResource({
  table: 'location',
  key: 'locationId',
  fields: { locationId: { type: 'guid' }, name: { type: 'string' } },
});

/**
 * A device, described once on its contract: GET v1/devices (spec 002 §2 Devices), the caller's
 * devices that are not deleted; one device; and the columns the form writes. The live values of
 * each device's latest packet (`cpuPercent`, `memoryPercent`, `packetTimestamp`) and whether it is
 * online (`isOnline`, by its heartbeat interval: db/device-presence.ts) are joined fields, read by
 * the base statement (`devicesBase`). The default order (name, then the key) is read from the
 * partial index `device_tenant_name_idx`; a name search from the trigram index on `lower(name)`.
 */
export const deviceEntity = defineEntity({
  table: 'device',
  key: 'deviceId',
  contract: deviceSchema,
  writable: deviceInputSchema,
  joined: ['cpuPercent', 'memoryPercent', 'packetTimestamp', 'isOnline'],
  fields: {
    deviceTypeId: { labels: labels(DEVICE_TYPES) },
    operatingSystemId: { labels: labels(OPERATING_SYSTEMS) },
    deviceLoggingLevelId: { labels: labels(DEVICE_LOGGING_LEVELS) },
  },
  relations: {
    location: { kind: 'one', resource: () => locationReference, column: 'location_id' },
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
    subscription: { kind: 'one', resource: () => subscriptionReference, column: 'subscription_id' },
  },
  defaultOrderBy: 'name asc',
});

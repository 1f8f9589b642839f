import { DEVICE_LOGGING_LEVELS, DEVICE_TYPES, OPERATING_SYSTEMS } from '@cfs/contracts/fleet';
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
 * GET v1/devices (spec 002 §2 Devices): the caller's devices that are not deleted, with the live
 * values of each device's latest packet (`cpu_percent`, `memory_percent`, `packet_timestamp`,
 * columns of the base statement, see queries.ts) and whether it is online (`is_online`). The default order (name, then the key) is read
 * from the partial index `device_tenant_name_idx`; a name search from the trigram index on `lower(name)`.
 */
export const devicesResource = defineResource({
  table: 'device',
  key: 'deviceId',
  fields: {
    deviceId: { type: 'guid' },
    name: { type: 'string' },
    description: { type: 'string' },
    tags: { type: 'string' },
    deviceTypeId: { type: 'integer', labels: labels(DEVICE_TYPES) },
    locationId: { type: 'guid' },
    operatingSystemId: { type: 'integer', labels: labels(OPERATING_SYSTEMS) },
    tenantId: { type: 'guid' },
    subscriptionId: { type: 'guid' },
    deviceLoggingLevelId: { type: 'integer', labels: labels(DEVICE_LOGGING_LEVELS) },
    heartbeatInterval: { type: 'integer' },
    enabled: { type: 'boolean' },
    restartAgentFlag: { type: 'boolean' },
    traceMinutes: { type: 'integer' },
    traceExpiration: { type: 'datetime' },
    isDeleted: { type: 'boolean' },
    machineName: { type: 'string' },
    agentVersion: { type: 'string' },
    lastContact: { type: 'datetime' },
    cpuPercent: { type: 'number' },
    memoryPercent: { type: 'number' },
    packetTimestamp: { type: 'datetime' },
    // Online by the heartbeat interval (db/device-presence.ts), a column of the base statement.
    isOnline: { type: 'boolean' },
  },
  relations: {
    location: { kind: 'one', resource: () => locationReference, column: 'location_id' },
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
    subscription: { kind: 'one', resource: () => subscriptionReference, column: 'subscription_id' },
  },
  defaultOrderBy: 'name asc',
});

import { defineResource } from '../../odata/resource.js';

/** GET v1/pendingdevices (spec 002 §2, §7): sorted by machine name; the page filters lastPing. */
export const pendingDevicesResource = defineResource({
  table: 'pending_device',
  key: 'pendingDeviceId',
  fields: {
    pendingDeviceId: { type: 'guid' },
    tenantId: { type: 'guid' },
    machineName: { type: 'string' },
    operatingSystem: { type: 'string' },
    architecture: { type: 'string' },
    ipAddress: { type: 'string' },
    created: { type: 'datetime' },
    lastPing: { type: 'datetime' },
  },
  defaultOrderBy: 'machineName asc',
});

import { pendingDeviceSchema } from '@cfs/contracts/pending-devices';
import { defineEntity } from '../../odata/entity.js';

/**
 * A pending device, described on its contract: GET v1/pendingdevices (spec 002 §2, §7), sorted by
 * machine name; the page filters lastPing. Agents enrol them and promotion deletes them: the API
 * writes none.
 */
export const pendingDeviceEntity = defineEntity({
  table: 'pending_device',
  key: 'pendingDeviceId',
  contract: pendingDeviceSchema,
  defaultOrderBy: 'machineName asc',
});

import { defineArea } from '../../http/area.js';
import { packetsAccess } from './access-policy.js';
import { maintainPacketPartitionsTask } from '../../engines/ingestion/partitions.js';
import { packetRoutes } from './routes.js';

export const packetsArea = defineArea({
  name: 'packets',
  routes: packetRoutes,
  access: packetsAccess,
  tasks: [maintainPacketPartitionsTask],
});

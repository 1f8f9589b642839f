import { defineArea } from '../../http/area.js';
import { maintainPacketPartitionsTask } from '../../engines/ingestion/partitions.js';
import { packetRoutes } from './routes.js';

export const packetsArea = defineArea({
  name: 'packets',
  routes: packetRoutes,
  tasks: [maintainPacketPartitionsTask],
});

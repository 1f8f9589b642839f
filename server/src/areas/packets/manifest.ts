import { defineArea } from '../../area.js';
import { maintainPacketPartitionsTask } from '../../engines/ingestion/partitions.js';
import { packetRoutes } from './routes.js';

export const packetsArea = defineArea({
  name: 'packets',
  routes: packetRoutes,
  apiTags: { Packets: 'What devices and integrations report about an entity, and its history.' },
  tasks: [maintainPacketPartitionsTask],
});

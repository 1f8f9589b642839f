import { defineArea } from '../../area.js';
import { seedDemoBlocks } from './demo.js';
import { blockRoutes } from './routes.js';

export const blocksArea = defineArea({
  name: 'blocks',
  routes: blockRoutes,
  apiTags: { Blocks: "Tiles of an entity's latest packet, coloured by rules." },
  audited: { block: 'Blocks' },
  demoSeed: (trx) => seedDemoBlocks(trx),
});

import { defineArea } from '../../http/area.js';
import { blocksAccess } from './access-policy.js';
import { seedDemoBlocks } from './demo.js';
import { blockRoutes } from './routes.js';

export const blocksArea = defineArea({
  name: 'blocks',
  routes: blockRoutes,
  access: blocksAccess,
  audited: { block: 'Blocks' },
  demoSeed: (trx) => seedDemoBlocks(trx),
});

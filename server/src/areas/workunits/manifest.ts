import { defineArea } from '../../http/area.js';
import { workUnitRoutes } from './routes.js';

export const workUnitsArea = defineArea({
  name: 'workunits',
  routes: workUnitRoutes,
  audited: { workUnit: 'WorkUnits' },
});

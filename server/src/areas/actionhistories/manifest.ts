import { defineArea } from '../../http/area.js';
import { actionHistoriesAccess } from './access-policy.js';
import { actionHistoryRoutes } from './routes.js';

export const actionHistoriesArea = defineArea({
  name: 'actionhistories',
  routes: actionHistoryRoutes,
  access: actionHistoriesAccess,
});

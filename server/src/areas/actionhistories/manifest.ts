import { defineArea } from '../../area.js';
import { actionHistoryRoutes } from './routes.js';

export const actionHistoriesArea = defineArea({
  name: 'actionhistories',
  routes: actionHistoryRoutes,
  apiTags: { 'Action history': 'Each run of an action: what it sent, what came back and its outcome.' },
});

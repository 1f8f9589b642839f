import { defineArea } from '../../area.js';
import { savedViewRoutes } from './routes.js';

export const savedViewsArea = defineArea({
  name: 'savedviews',
  routes: savedViewRoutes,
  apiTags: { 'Saved views': "A user's saved filters, sorting and columns of the work units grid." },
});

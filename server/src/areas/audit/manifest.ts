import { defineArea } from '../../http/area.js';
import { auditRoutes } from './routes.js';

export const auditArea = defineArea({
  name: 'audit',
  routes: auditRoutes,
});

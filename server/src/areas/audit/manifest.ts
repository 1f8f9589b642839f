import { defineArea } from '../../http/area.js';
import { auditAccess } from './access-policy.js';
import { auditRoutes } from './routes.js';

export const auditArea = defineArea({
  name: 'audit',
  routes: auditRoutes,
  access: auditAccess,
});

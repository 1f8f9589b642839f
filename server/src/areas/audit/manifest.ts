import { defineArea } from '../../area.js';
import { auditRoutes } from './routes.js';

export const auditArea = defineArea({
  name: 'audit',
  routes: auditRoutes,
  apiTags: { Audit: 'The change history of audited entities: who changed what, and when.' },
});

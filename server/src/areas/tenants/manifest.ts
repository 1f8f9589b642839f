import { defineArea } from '../../area.js';
import { tenantRoutes } from './routes.js';

export const tenantsArea = defineArea({
  name: 'tenants',
  routes: tenantRoutes,
  apiTags: {
    Tenants:
      "The service provider's customers: their settings, notification address, assignment groups, intake form and secrets.",
  },
  audited: { tenant: 'Tenants', tenantSecret: 'Tenants' },
});

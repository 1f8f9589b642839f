import { defineArea } from '../../http/area.js';
import { tenantRoutes } from './routes.js';

export const tenantsArea = defineArea({
  name: 'tenants',
  routes: tenantRoutes,
  audited: { tenant: 'Tenants', tenantSecret: 'Tenants' },
});

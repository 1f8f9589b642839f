import { defineArea } from '../../http/area.js';
import { tenantsAccess } from './access-policy.js';
import { tenantRoutes } from './routes.js';

export const tenantsArea = defineArea({
  name: 'tenants',
  routes: tenantRoutes,
  access: tenantsAccess,
  audited: { tenant: 'Tenants', tenantSecret: 'Tenants' },
});

import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Tx } from '../../db/database.js';
import { DEMO } from '../../db/demo-ids.js';
import { scoped } from '../../db/scoped.js';

/** Demo locations: one shared by every tenant, the others each a demo tenant's own. */
export async function seedDemoLocations(trx: Tx, tenants: { contoso: string; fabrikam: string } = DEMO): Promise<void> {
  const place = (
    tenantId: string | null,
    name: string,
    city: string,
    state: string,
    country: string,
    postalCode: string,
  ) => ({
    tenant_id: tenantId,
    name,
    city,
    state,
    country,
    postal_code: postalCode,
    created_by: 'seed',
    modified_by: 'seed',
  });
  await scoped(trx, ALL_TENANTS)
    .insertInto('location', [
      place(null, 'Shared Data Centre', 'Ashburn', 'VA', 'United States', '20147'),
      place(tenants.contoso, 'Contoso Headquarters', 'Seattle', 'WA', 'United States', '98101'),
      place(tenants.contoso, 'Contoso Warehouse', 'Portland', 'OR', 'United States', '97201'),
      place(tenants.fabrikam, 'Fabrikam Redmond Plant', 'Redmond', 'WA', 'United States', '98052'),
      place(tenants.fabrikam, 'Fabrikam Dublin Office', 'Dublin', 'Leinster', 'Ireland', 'D02'),
    ])
    .execute();
}

import { SOFTWARE_DEFAULT_ORDER } from '@cfs/contracts/software';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { defineResource } from '../../odata/resource.js';

/**
 * The caller's devices' installed software, as their agents last reported it (areas/agent/inventory.ts
 * keeps it; a deleted device's rows go with it, migration 0048), with each device's and tenant's
 * name. Both names are left joins on a key, which PostgreSQL drops where nothing reads them: the
 * page's keys and the count read the software table alone, and the names are joined for the rows
 * of the page. The default order (name, version, key) walks `device_software_tenant_order_idx` (or
 * `device_software_order_idx` across every tenant), a name search the trigram index
 * `device_software_search_idx`, and a version comparison uses the column's `version_order` collation.
 */
export function installedSoftwareBase(db: Db, scope: TenantScope) {
  return scoped(db, scope)
    .selectFrom('device_software')
    .leftJoin('device', 'device.device_id', 'device_software.device_id')
    .leftJoin('tenant', 'tenant.tenant_id', 'device_software.tenant_id')
    .select([
      'device_software.device_software_id',
      'device_software.device_id',
      'device.name as device_name',
      'device_software.tenant_id',
      'tenant.name as tenant_name',
      'device_software.name',
      'device_software.version',
      'device_software.publisher',
    ]);
}

/** GET /v1/software: filtered, sorted and paged in the database like every list; exported as CSV. */
export const installedSoftwareResource = defineResource({
  table: 'device_software',
  key: 'deviceSoftwareId',
  fields: {
    deviceSoftwareId: { type: 'integer' },
    deviceId: { type: 'guid' },
    deviceName: { type: 'string' },
    tenantId: { type: 'guid' },
    tenantName: { type: 'string' },
    name: { type: 'string' },
    version: { type: 'string' },
    publisher: { type: 'string' },
  },
  defaultOrderBy: SOFTWARE_DEFAULT_ORDER,
  searchFields: ['name'],
});

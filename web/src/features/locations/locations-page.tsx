import type { GridColDef } from '@mui/x-data-grid';
import { titleColumn } from '../../components/grid-columns';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { isGuid } from '@cfs/contracts/values/odata';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { LOCATIONS_PATH, type Location } from './api';

// The drawer and its form load when first opened.
const LocationDrawer = lazyWhenOpened(
  () => import('./location-drawer'),
  (props) => props.id !== null,
);

/** Locations (spec 002 §2): the caller's tenants' locations and the shared ones; `?locationId=`. */
export default function LocationsPage() {
  const tenantId = useTenantId();
  const list = useListState({ defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  const drawer = useDrawerParam('locationId');
  const columns: GridColDef<Location>[] = [
    titleColumn<Location>(
      { field: 'name', headerName: 'Name', flex: 1, minWidth: 160 },
      drawer,
      (row) => row.locationId,
    ),
    { field: 'city', headerName: 'City', flex: 1, minWidth: 120 },
    { field: 'state', headerName: 'State', width: 120 },
    {
      field: 'tenant',
      headerName: 'Tenant',
      flex: 1,
      minWidth: 140,
      valueGetter: (_value, row) => row.tenant?.name ?? '',
    },
  ];
  return (
    <>
      <PageHeader title="Locations" />
      <ResourceGrid
        list={list}
        path={LOCATIONS_PATH}
        expand="tenant"
        columns={columns}
        essentialColumns={['name', 'city']}
        getRowId={(row) => row.locationId}
        fields={{ tenant: { path: 'tenant/name' } }}
        searchFields={['name', 'city', 'state']}
        exportFileName="locations.csv"
        onCreate={() => drawer.open('new')}
        onRowClick={(row) => drawer.open(row.locationId)}
      />
      <LocationDrawer
        id={drawer.openId}
        tenantId={isGuid(tenantId) ? tenantId : null}
        onCreated={(saved) => drawer.open(saved.locationId, { replace: true })}
        onClose={drawer.close}
      />
    </>
  );
}

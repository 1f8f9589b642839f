import Button from '@mui/material/Button';
import type { GridColDef } from '@mui/x-data-grid';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import UploadIcon from '@mui/icons-material/Upload';
import { EXECUTABLE_TYPES, PACKAGE_TYPES } from '@cfs/contracts/fleet';
import { PACKAGE_MESSAGES } from '@cfs/contracts/packages';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { EnumDisplay } from '../../components/enum-display';
import { enumOptions } from '../../components/enum-label';
import { actionsColumn, titleColumn } from '../../components/grid-columns';
import { ACTIONS_FIELD } from '../../components/grid-model';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { isGuid } from '@cfs/contracts/values/odata';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { PACKAGES_PATH, useDeletePackage, type Package } from './api';
import { operatingSystemsText } from './package-labels';

// The drawers and their forms load when first opened.
const PackageDrawer = lazyWhenOpened(
  () => import('./package-drawer'),
  (props) => props.id !== null,
);
const UploadVersionDrawer = lazyWhenOpened(
  () => import('./upload-version-drawer'),
  (props) => props.packageId !== null,
);

/** Package Catalog (spec 002 §2 Packages): `?packageId=&tab=`, and `?uploadPackageId=` for an upload. */
export default function PackagesPage() {
  const tenantId = useTenantId();
  const list = useListState({ defaults: { sort: [{ field: 'name', direction: 'asc' }] } });
  const drawer = useDrawerParam('packageId', { clear: ['tab'] });
  const upload = useDrawerParam('uploadPackageId');
  const deleting = useItemQuestion<Package>();
  const remove = useDeletePackage();

  const columns: GridColDef<Package>[] = [
    titleColumn<Package>({ field: 'name', headerName: 'Name', flex: 1, minWidth: 160 }, drawer, (row) => row.packageId),
    {
      field: 'operatingSystemRidsId',
      headerName: 'Supported Operating Systems',
      flex: 1,
      minWidth: 180,
      sortable: false,
      filterable: false,
      valueGetter: (_value, row) => operatingSystemsText(row.operatingSystemRidsId),
    },
    {
      field: 'packageTypeId',
      headerName: 'Package Type',
      width: 150,
      type: 'singleSelect',
      valueOptions: enumOptions(PACKAGE_TYPES),
      renderCell: ({ row }) => <EnumDisplay enumType={PACKAGE_TYPES} value={row.packageTypeId} />,
    },
    {
      field: 'executableTypeId',
      headerName: 'Executable Type',
      width: 150,
      type: 'singleSelect',
      valueOptions: enumOptions(EXECUTABLE_TYPES),
      renderCell: ({ row }) =>
        row.executableTypeId === null ? '' : <EnumDisplay enumType={EXECUTABLE_TYPES} value={row.executableTypeId} />,
    },
    {
      field: 'tenant',
      headerName: 'Tenant',
      flex: 1,
      minWidth: 140,
      valueGetter: (_value, row) => row.tenant?.name ?? '',
    },
    actionsColumn<Package>((row) => [
      { label: 'Edit', icon: <EditIcon fontSize="small" />, onClick: () => drawer.open(row.packageId) },
      { label: 'Upload Version', icon: <UploadIcon fontSize="small" />, onClick: () => upload.open(row.packageId) },
      { label: 'Delete', icon: <DeleteIcon fontSize="small" />, color: 'error', onClick: () => deleting.ask(row) },
    ]),
  ];

  return (
    <>
      <PageHeader title="Package Catalog" />
      <ResourceGrid
        list={list}
        path={PACKAGES_PATH}
        expand="tenant"
        columns={columns}
        essentialColumns={['name', 'packageTypeId', ACTIONS_FIELD]}
        getRowId={(row) => row.packageId}
        fields={{ tenant: { path: 'tenant/name' } }}
        searchFields={['name']}
        exportFileName="packages.csv"
        onCreate={() => drawer.open('new')}
        onRowClick={(row) => drawer.open(row.packageId)}
        toolbarActions={
          <Button size="small" startIcon={<UploadIcon />} onClick={() => upload.open('new')}>
            Upload Package
          </Button>
        }
      />
      <PackageDrawer
        id={drawer.openId}
        tenantId={isGuid(tenantId) ? tenantId : null}
        onCreated={(saved) => drawer.open(saved.packageId, { replace: true })}
        onUpload={(packageId) => upload.open(packageId)}
        onClose={drawer.close}
      />
      <UploadVersionDrawer packageId={upload.openId} onClose={upload.close} />
      <ItemConfirmDialog
        question={deleting}
        title={(pkg) => `Delete Package: ${pkg.name}`}
        text={PACKAGE_MESSAGES.deleteConfirm}
        onConfirm={(pkg) => remove.mutateAsync(pkg.packageId)}
      />
    </>
  );
}

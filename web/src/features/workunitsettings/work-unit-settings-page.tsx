import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import EditIcon from '@mui/icons-material/Edit';
import { usePermissions } from '../../auth/session-data';
import { actionsColumn, titleColumn } from '../../components/grid-columns';
import { ACTIONS_FIELD } from '../../components/grid-model';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { positiveIntId } from '../../lib/ids';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { CATEGORIES_PATH, CATEGORY_EXPAND, type WorkUnitCategory } from './api';
import { WorkUnitTypesSection } from './work-unit-types-section';

// The drawers and their forms load when first opened.
const CategoryDrawer = lazyWhenOpened(
  () => import('./category-drawer'),
  (props) => props.openId !== null,
);
const SubcategoriesDrawer = lazyWhenOpened(
  () => import('./subcategories-drawer'),
  (props) => props.categoryId !== null,
);

/**
 * Work Unit Settings (spec 001 §2): the categories grid — enabled ones by default, a filter the
 * user sees and may remove — with a category drawer (`?workUnitCategoryId=`) and a subcategory
 * drawer per category (`?subcategoriesCategoryId=`). The extra section the spec leaves unnamed is
 * the management of work unit types, for users with WorkUnits.Types edit.
 */
export default function WorkUnitSettingsPage() {
  const tenantId = useTenantId();
  const canEditTypes = usePermissions().has('WorkUnits.Types', 'edit');
  const list = useListState({
    defaults: {
      sort: [{ field: 'workUnitCategoryId', direction: 'asc' }],
      filters: [{ id: 'enabled', field: 'isEnabled', operator: 'is', value: true }],
    },
  });
  const drawer = useDrawerParam('workUnitCategoryId');
  const subcategories = useDrawerParam('subcategoriesCategoryId');

  const columns: GridColDef<WorkUnitCategory>[] = [
    { field: 'workUnitCategoryId', headerName: 'ID', type: 'number', width: 90, align: 'left', headerAlign: 'left' },
    titleColumn<WorkUnitCategory>(
      { field: 'name', headerName: 'Name', flex: 1, minWidth: 180 },
      drawer,
      (row) => row.workUnitCategoryId,
    ),
    {
      field: 'tenant',
      headerName: 'Tenant',
      flex: 1,
      minWidth: 150,
      valueGetter: (_value, row) => row.tenant?.name ?? '',
    },
    {
      field: 'workUnitType',
      headerName: 'Work Unit Type',
      flex: 1,
      minWidth: 150,
      valueGetter: (_value, row) => row.workUnitType?.name ?? '',
    },
    { field: 'isEnabled', headerName: 'Enabled', type: 'boolean', width: 120 },
    { field: 'isVisibleInResolutionCenter', headerName: 'Visible in Resolution Center', type: 'boolean', width: 210 },
    actionsColumn<WorkUnitCategory>((row) => [
      { label: 'Edit', icon: <EditIcon fontSize="small" />, onClick: () => drawer.open(row.workUnitCategoryId) },
      {
        label: 'Subcategories',
        icon: <AccountTreeIcon fontSize="small" />,
        onClick: () => subcategories.open(row.workUnitCategoryId),
      },
    ]),
  ];

  return (
    <>
      <PageHeader title="Work Unit Settings" />
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Categories
      </Typography>
      <ResourceGrid
        list={list}
        path={CATEGORIES_PATH}
        expand={CATEGORY_EXPAND}
        fields={{ tenant: { path: 'tenant/name' }, workUnitType: { path: 'workUnitType/name' } }}
        tenantScope={tenantId}
        columns={columns}
        essentialColumns={['name', 'isEnabled', ACTIONS_FIELD]}
        getRowId={(row) => row.workUnitCategoryId}
        searchFields={['name']}
        exportFileName="workunitcategories.csv"
        onCreate={() => drawer.open('new')}
        onRowClick={(row) => drawer.open(row.workUnitCategoryId)}
      />
      <CategoryDrawer
        openId={drawer.openId}
        routeTenantId={tenantId}
        onClose={drawer.close}
        onCreated={(id) => drawer.open(id, { replace: true })}
      />
      <SubcategoriesDrawer categoryId={positiveIntId(subcategories.openId)} onClose={subcategories.close} />
      {canEditTypes && <WorkUnitTypesSection />}
    </>
  );
}

import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Switch from '@mui/material/Switch';
import type { GridColDef } from '@mui/x-data-grid';
import AddIcon from '@mui/icons-material/Add';
import { Link as RouterLink } from '../../lib/router';
import type { WorkUnit } from '@cfs/contracts/work-units';
import { SEVERITIES, WORK_UNIT_SEARCH_FIELDS, WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import { enumOptions } from '../../components/enum-label';
import { EnumDisplay } from '../../components/enum-display';
import { dateTimeColumn, titleColumn } from '../../components/grid-columns';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { SavedViewsBar } from '../../components/saved-views-bar';
import { useTenant, useWorkUnitTypesLookup } from '../../lib/lookups';
import { PageHeader } from '../../lib/page-header';
import { WORK_UNITS_EXPAND, WORK_UNITS_PATH } from './api';
import { useWorkUnitsPage } from './use-work-units-page';
import { severityCellClass, severityCellStyles, StateCell, WorkUnitTypeIcon } from './work-unit-cells';
import { useWorkUnitBulkActions, WorkUnitBulkDialogs } from './work-unit-bulk-actions';
import { builtInViews, WORK_UNIT_FIELDS } from './work-unit-filters';
import { customFieldDefinitions } from './custom-fields';
import { WorkUnitFilterBar } from './work-unit-filter-bar';
import { STATE_NAME_LABELS } from './work-unit-display';
import { PersonLabel } from '../../components/person-label';
import { ListClockCell } from './service-level-clocks';

// The panels load when they first open: the list paints without the forms and date pickers.
const WorkUnitPanel = lazyWhenOpened(
  () => import('./work-unit-panel'),
  (props) => props.openId !== null,
);
const IntakeDrawer = lazyWhenOpened(
  () => import('./intake-drawer'),
  (props) => props.openId !== null,
);

/** Work Units (spec 001 §2 "Work units list"), at /{tenantId}/workunitsv2 and /workunitsv2. */
export default function WorkUnitsPage() {
  const page = useWorkUnitsPage();
  const types = useWorkUnitTypesLookup();
  const bulk = useWorkUnitBulkActions(page.canEdit);
  // The custom fields of the tenant in the path, headed by their names.
  const customFields = customFieldDefinitions(useTenant(page.tenantId).data);
  const columns: GridColDef<WorkUnit>[] = [
    { field: 'workUnitId', headerName: 'ID', type: 'number', width: 80, align: 'left', headerAlign: 'left' },
    { field: 'tenant', headerName: 'Tenant', width: 130, valueGetter: (_value, row) => row.tenant?.name ?? '' },
    titleColumn<WorkUnit>(
      { field: 'title', headerName: 'Title', flex: 1, minWidth: 240 },
      page.panel,
      (row) => row.workUnitId,
    ),
    {
      field: 'severityId',
      headerName: 'Severity',
      type: 'singleSelect',
      valueOptions: enumOptions(SEVERITIES),
      width: 110,
      cellClassName: ({ row }) => severityCellClass(row.severityId),
      renderCell: ({ row }) => <EnumDisplay enumType={SEVERITIES} value={row.severityId} />,
    },
    {
      field: 'stateId',
      headerName: 'State',
      type: 'singleSelect',
      valueOptions: enumOptions(WORK_UNIT_STATES, STATE_NAME_LABELS),
      width: 150,
      renderCell: ({ row }) => (
        <StateCell
          stateId={row.stateId}
          busy={page.acknowledging === row.workUnitId}
          onAcknowledge={page.canEdit ? () => page.acknowledge(row) : undefined}
        />
      ),
    },
    {
      field: 'assignedTo',
      headerName: 'Assigned To',
      width: 190,
      renderCell: ({ row }) => <PersonLabel value={row.assignedTo} />,
    },
    { field: 'stakeHolderFullName', headerName: 'Stakeholder Name', width: 160 },
    { field: 'stakeHolderPhoneNumber', headerName: 'Stakeholder Phone', width: 150 },
    { field: 'stakeHolderEmailAddress', headerName: 'Stakeholder Email', width: 200 },
    dateTimeColumn<WorkUnit>({ field: 'modified', headerName: 'Last Updated' }),
    dateTimeColumn<WorkUnit>({ field: 'created', headerName: 'Created' }),
    {
      field: 'workUnitType',
      headerName: 'Work Unit Type',
      width: 140,
      valueGetter: (_value, row) => row.workUnitType?.name ?? '',
    },
    { field: 'assignmentGroup', headerName: 'Assignment Group', width: 160 },
    // The service level clocks after the spec's columns (docs/features/service-levels.md "In the list").
    {
      field: 'responseDue',
      headerName: 'Response',
      width: 150,
      valueGetter: (_value, row) => row.responseClock?.due ?? null,
      renderCell: ({ row }) => <ListClockCell clock={row.responseClock} />,
    },
    {
      field: 'resolutionDue',
      headerName: 'Resolution',
      width: 150,
      valueGetter: (_value, row) => row.resolutionClock?.due ?? null,
      renderCell: ({ row }) => <ListClockCell clock={row.resolutionClock} />,
    },
    ...customFields.map((custom): GridColDef<WorkUnit> => ({
      field: custom.valueField,
      headerName: custom.name,
      width: 150,
    })),
  ];

  return (
    <>
      <PageHeader
        title="Work Units"
        documentTitle={page.documentTitle}
        actions={
          <Link
            component={RouterLink}
            to={`/${page.tenantId}/workunits/index`}
            variant="body2"
            sx={{ alignSelf: 'center' }}
          >
            Return to the old experience
          </Link>
        }
      />
      <SavedViewsBar
        grid="workunits"
        tenantId={page.tenantId}
        list={page.list}
        builtIn={builtInViews(page.me, page.myGroups)}
      />
      <WorkUnitFilterBar
        filters={page.list.state.filters}
        onChange={page.list.setFilters}
        protocolId={page.protocolId}
        onClearProtocol={page.clearProtocol}
      />
      <ResourceGrid
        list={page.list}
        path={WORK_UNITS_PATH}
        expand={WORK_UNITS_EXPAND}
        columns={columns}
        essentialColumns={['workUnitId', 'title', 'severityId', 'stateId']}
        getRowId={(row) => row.workUnitId}
        fields={WORK_UNIT_FIELDS}
        fixedFilter={page.fixedFilter}
        tenantScope={page.tenantId}
        searchFields={WORK_UNIT_SEARCH_FIELDS}
        exactMatch
        exportFileName="workunits.csv"
        exportAllRows={null}
        columnsToggle
        disableColumnFilter
        refetchInterval={page.refetchInterval}
        live={page.refetchInterval === false ? undefined : 'workUnits'}
        onRowClick={(row) => page.panel.open(row.workUnitId)}
        menu={
          page.canCreate
            ? {
                label: 'Create',
                icon: <AddIcon />,
                items: (types.data ?? []).map((type) => ({
                  label: type.name,
                  icon: <WorkUnitTypeIcon workUnitTypeId={type.workUnitTypeId} />,
                  onClick: () => page.create(type.workUnitTypeId),
                })),
              }
            : undefined
        }
        toolbarActions={
          <FormControlLabel
            sx={{ ml: 0.5 }}
            control={
              <Switch
                size="small"
                checked={page.autoRefresh}
                onChange={(event) => page.setAutoRefresh(event.target.checked)}
              />
            }
            label="Auto Refresh"
          />
        }
        gridProps={{ sx: severityCellStyles }}
        bulk={bulk.grid}
      />
      <WorkUnitBulkDialogs bulk={bulk} />
      <WorkUnitPanel
        openId={page.panel.openId}
        workUnitId={page.panel.workUnitId}
        newTypeId={page.panel.newTypeId}
        tenantId={page.tenantId}
        onClose={page.panel.close}
        onCreated={page.created}
        onOpenWorkUnit={(workUnitId) => page.panel.open(workUnitId)}
        workUnitHref={page.panel.href}
      />
      <IntakeDrawer
        openId={page.intake.openId}
        onPickTenant={(tenantId) => page.intake.open(tenantId, { replace: true })}
        onClose={page.intake.close}
      />
    </>
  );
}

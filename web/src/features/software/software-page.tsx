import { useEffect, useEffectEvent, useState } from 'react';
import { Link as RouterLink } from '../../lib/router';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { SOFTWARE_EXPORT_FILE, SOFTWARE_PATH, type InstalledSoftwareRow } from '@cfs/contracts/software';
import { ResourceGrid } from '../../components/resource-grid';
import type { JsonOf } from '../../lib/json-types';
import type { FilterItem } from '../../lib/list-query';
import { replaceFilter } from '../../lib/list-state';
import { PageHeader } from '../../lib/page-header';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useTenantId } from '../../lib/use-tenant-id';
import { useListState } from '../../lib/url-state';

type Row = JsonOf<InstalledSoftwareRow>;

/** How the version filter compares: the grid filter's operators, in words. */
const COMPARISONS = [
  { operator: '<', label: 'Below' },
  { operator: '<=', label: 'At or below' },
  { operator: '=', label: 'Exactly' },
  { operator: '>=', label: 'At or above' },
  { operator: '>', label: 'Above' },
] as const;

const FIELDS = { version: { kind: 'version' } } as const;
const TYPING_DELAY_MS = 300;

/**
 * The version comparison above the grid (the search box finds the name): kept in the list's
 * address, so a "below 3.0.13" link can be shared.
 */
function VersionFilter({
  current,
  onChange,
}: {
  current: FilterItem | undefined;
  onChange: (item: FilterItem | undefined) => void;
}) {
  const [operator, setOperator] = useState(current?.operator ?? '<');
  const [version, setVersion] = useState(String(current?.value ?? ''));
  const typed = useDebouncedValue(version.trim(), TYPING_DELAY_MS);
  // The typed version (once typing pauses) and the comparison change the filter; onChange does not.
  const apply = useEffectEvent((item: FilterItem | undefined) => onChange(item));
  useEffect(() => {
    apply(typed ? { id: 'version', field: 'version', operator, value: typed } : undefined);
  }, [typed, operator]);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2 }} role="group" aria-label="Version filter">
      <TextField
        select
        size="small"
        label="Version"
        value={operator}
        onChange={(event) => setOperator(event.target.value)}
        sx={{ minWidth: 140 }}
      >
        {COMPARISONS.map((comparison) => (
          <MenuItem key={comparison.operator} value={comparison.operator}>
            {comparison.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        label="Version number"
        placeholder="3.0.13"
        value={version}
        onChange={(event) => setVersion(event.target.value)}
        sx={{ width: 160 }}
      />
    </Box>
  );
}

/**
 * The software installed across the fleet, as each device's agent last reported it: "which devices
 * have OpenSSL below 3.0.13" is a search for the name and a version comparison (versions compare as people read
 * them: 3.0.9 is below 3.0.13), exported as CSV with every matching row. A device's name opens its
 * Inventory.
 */
export default function SoftwarePage() {
  const tenantId = useTenantId();
  const list = useListState({
    defaults: {
      sort: [
        { field: 'name', direction: 'asc' },
        { field: 'version', direction: 'asc' },
      ],
    },
  });
  const versionFilter = list.state.filters.find((item) => item.field === 'version');
  const setVersionFilter = (item: FilterItem | undefined) => {
    if (!item && !versionFilter) return;
    if (item && versionFilter?.operator === item.operator && versionFilter.value === item.value) return;
    list.setFilters(replaceFilter('version', item));
  };
  const columns: GridColDef<Row>[] = [
    { field: 'name', headerName: 'Name', flex: 2, minWidth: 160 },
    { field: 'version', headerName: 'Version', flex: 1, minWidth: 120 },
    { field: 'publisher', headerName: 'Publisher', flex: 1, minWidth: 120 },
    {
      field: 'deviceName',
      headerName: 'Device',
      flex: 1,
      minWidth: 120,
      renderCell: ({ row }) => (
        <Link
          component={RouterLink}
          to={`/${row.tenantId}/devices?deviceInventoryId=${row.deviceId}`}
          variant="body2"
          aria-label={`${row.deviceName}: inventory`}
        >
          {row.deviceName}
        </Link>
      ),
    },
    { field: 'tenantName', headerName: 'Tenant', flex: 1, minWidth: 110 },
  ];
  return (
    <>
      <PageHeader
        title="Software"
        help="The software installed on the fleet's devices, as each agent last reported it (daily, and when it starts). Versions compare as people read them: 3.0.9 is below 3.0.13."
      />
      <VersionFilter current={versionFilter} onChange={setVersionFilter} />
      <ResourceGrid
        list={list}
        path={SOFTWARE_PATH}
        columns={columns}
        essentialColumns={['name', 'version', 'deviceName']}
        getRowId={(row) => row.deviceSoftwareId}
        tenantScope={tenantId}
        fields={FIELDS}
        searchFields={['name']}
        exactMatch
        exportFileName={SOFTWARE_EXPORT_FILE}
        exportAllRows={null}
        disableColumnFilter
        columnsToggle
      />
    </>
  );
}

import { Link as RouterLink } from '../../lib/router';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  VERSION_REPORT_EXPORT_FILE,
  VERSION_REPORT_PAGE_SIZES,
  type VersionReportGroupField,
} from '@cfs/contracts/version-report';
import { VERSION_REPORT_PAGE_SIZE } from '@cfs/contracts/constants';
import { dateTimeColumn } from '../../components/grid-columns';
import { ResourceGrid } from '../../components/resource-grid';
import { tenantScopeFilter } from '../../lib/list-query';
import { replaceFilter } from '../../lib/list-state';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useListState } from '../../lib/url-state';
import { useGroupValues, useVersionSummary, VERSION_REPORT_PATH, type ReportRow } from './api';

function Figure({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Box sx={{ minWidth: 120 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      {/* A figure, not a heading: an h6 under the page's h1 skipped four levels. */}
      <Typography variant="h6" component="p" data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

/** A filter of the report chosen from the values it holds (the report's group-by). */
function GroupFilter({
  field,
  label,
  scope,
  value,
  onChange,
}: {
  field: VersionReportGroupField;
  label: string;
  scope: string | undefined;
  value: string;
  onChange: (value: string) => void;
}) {
  const options = useGroupValues(field, scope).data ?? [];
  return (
    <TextField
      select
      size="small"
      label={label}
      value={options.includes(value) ? value : ''}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth: 180 }}
    >
      <MenuItem value="">All</MenuItem>
      {options.map((option) => (
        <MenuItem key={option} value={option}>
          {option}
        </MenuItem>
      ))}
    </TextField>
  );
}

const FILTERED: readonly { field: VersionReportGroupField; label: string }[] = [
  { field: 'subscriptionName', label: 'Subscription' },
  { field: 'packageName', label: 'Package' },
  { field: 'versionStatus', label: 'Version Status' },
];

/**
 * The version report (spec 002 §2 Version report, §9): the tenant's devices × installed packages
 * against each package's Latest, 25 a page (25, 50, 100), a summary strip of devices and packages
 * with the up-to-date percentage, filters from the report's own values, and CSV export.
 */
export default function VersionReportPage() {
  const tenantId = useTenantId();
  const list = useListState({
    pageSizeOptions: VERSION_REPORT_PAGE_SIZES,
    defaults: { pageSize: VERSION_REPORT_PAGE_SIZE, sort: [{ field: 'deviceName', direction: 'asc' }] },
  });
  const scope = tenantScopeFilter(tenantId, list.state.allTenants);
  const summary = useVersionSummary(scope).data;
  const chosen = (field: string) => String(list.state.filters.find((item) => item.field === field)?.value ?? '');
  const choose = (field: string, value: string) =>
    list.setFilters(replaceFilter(field, value ? { id: field, field, operator: 'is', value } : undefined));
  // Nine columns in a laptop's 1,130 px: narrow minimums and the ages under the dates. On a
  // narrower screen the Installed Released, Subscription and Tenant columns go to the column
  // panel before the Latest ones, the report's point.
  const columns: GridColDef<ReportRow>[] = [
    { field: 'deviceName', headerName: 'Device', flex: 1, minWidth: 120 },
    {
      field: 'tenantName',
      headerName: 'Tenant',
      flex: 1,
      minWidth: 100,
      renderCell: ({ row }) => (
        <Link
          component={RouterLink}
          to={`/${row.tenantId}/versionreport`}
          variant="body2"
          onClick={(event) => event.stopPropagation()}
        >
          {row.tenantName}
        </Link>
      ),
    },
    { field: 'subscriptionName', headerName: 'Subscription', flex: 1, minWidth: 110 },
    { field: 'packageName', headerName: 'Package', flex: 1, minWidth: 100 },
    {
      field: 'versionStatus',
      headerName: 'Version Status',
      width: 100,
      type: 'singleSelect',
      valueOptions: ['Current', 'Outdated'],
      renderCell: ({ row }) => (
        <Chip
          size="small"
          label={row.versionStatus}
          color={row.versionStatus === 'Current' ? 'success' : 'warning'}
          variant="outlined"
        />
      ),
    },
    { field: 'installedVersion', headerName: 'Installed Version', width: 100 },
    dateTimeColumn<ReportRow>({ field: 'installedVersionReleased', headerName: 'Installed Released', stacked: true }),
    { field: 'latestVersion', headerName: 'Latest Version', width: 100 },
    dateTimeColumn<ReportRow>({ field: 'latestVersionReleased', headerName: 'Latest Released', stacked: true }),
  ];
  return (
    <>
      <PageHeader
        title="Version Report"
        help="Each device's installed packages against the package's Latest version (the highest release; a pre-release is never Latest)."
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 3 }} aria-label="Summary">
        <Figure label="Devices" value={summary?.devices ?? '…'} testId="summary-devices" />
        <Figure label="Up-to-date devices" value={summary?.compliantDevices ?? '…'} testId="summary-compliant" />
        <Figure
          label="Devices with outdated packages"
          value={summary?.devicesOutdated ?? '…'}
          testId="summary-devices-outdated"
        />
        <Figure label="Packages current" value={summary?.packagesCurrent ?? '…'} testId="summary-packages-current" />
        <Figure label="Packages outdated" value={summary?.packagesOutdated ?? '…'} testId="summary-packages-outdated" />
        <Figure label="Up to date" value={summary ? `${summary.upToDate}%` : '…'} testId="summary-percentage" />
      </Paper>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2 }}>
        {FILTERED.map(({ field, label }) => (
          <GroupFilter
            key={field}
            field={field}
            label={label}
            scope={scope}
            value={chosen(field)}
            onChange={(value) => choose(field, value)}
          />
        ))}
      </Box>
      <ResourceGrid
        list={list}
        path={VERSION_REPORT_PATH}
        columns={columns}
        essentialColumns={[
          'deviceName',
          'packageName',
          'versionStatus',
          'installedVersion',
          'latestVersion',
          'latestVersionReleased',
        ]}
        getRowId={(row) => row.installationId}
        tenantScope={tenantId}
        searchFields={['deviceName', 'packageName']}
        exportFileName={VERSION_REPORT_EXPORT_FILE}
        exportMethod="POST"
        disableColumnFilter
        columnsToggle
      />
    </>
  );
}

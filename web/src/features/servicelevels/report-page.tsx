import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from '../../lib/router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableContainer from '@mui/material/TableContainer';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import PrintIcon from '@mui/icons-material/Print';
import { BarChart } from '@mui/x-charts/BarChart';
import { SERVICE_LEVEL_REPORT_BREACHES, type Attainment, type ServiceLevelReport } from '@cfs/contracts/service-levels';
import { SEVERITY_LABELS } from '@cfs/contracts/values/work-units';
import { formatSpan, formatDate, formatDateTime } from '../../lib/dates';
import { apiDownloadNamed, apiGet } from '../../lib/api-client';
import type { JsonOf } from '../../lib/json-types';
import { useApiMutation } from '../../lib/mutations';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useQueryParam } from '../../lib/url-state';
import { monthFromAddress, monthName, percentText, shiftMonth, tallyText } from './report-model';

const reportPath = (tenantId: string) => `/v1/servicelevels/reports/${tenantId}`;

/** Hidden on paper: the page's controls. */
const SCREEN_ONLY = { '@media print': { display: 'none' } } as const;

function AttainmentCell({ tally }: { tally: Attainment }) {
  return (
    <TableCell align="right">
      <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
        {percentText(tally)}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {tallyText(tally)}
      </Typography>
    </TableCell>
  );
}

function Summary({ label, tally }: { label: string; tally: Attainment }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 200 }}>
      <Typography variant="overline" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h4" component="p">
        {percentText(tally)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {tallyText(tally)}
        {tally.missed > 0 ? `, ${tally.missed} missed` : ''}
      </Typography>
    </Paper>
  );
}

/** A part of the report under its heading, which names it. */
function ReportSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id}>
      <Typography id={id} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A table of the report named by its section's heading, or `emptyText` when it has no rows. */
function ReportTable({
  labelledBy,
  emptyText,
  head,
  rows,
}: {
  labelledBy: string;
  emptyText: string;
  head: ReactNode;
  rows: ReactNode[];
}) {
  if (rows.length === 0) return <Typography color="text.secondary">{emptyText}</Typography>;
  return (
    // A table wider than a phone scrolls within its frame, not the page.
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-labelledby={labelledBy}>
        <TableHead>
          <TableRow>{head}</TableRow>
        </TableHead>
        <TableBody>{rows}</TableBody>
      </Table>
    </TableContainer>
  );
}

function Report({ report, tenantId }: { report: JsonOf<ServiceLevelReport>; tenantId: string }) {
  const percentOf = (tally: Attainment) =>
    tally.attainment === null ? null : Math.round(tally.attainment * 1000) / 10;
  return (
    <Stack spacing={3}>
      <Typography variant="body2" color="text.secondary">
        {report.tenantName}, {monthName(report.month)} in {report.timeZone}: each clock counts in the month it was
        decided, missed when it breached and met when it stopped in time.
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Summary label="Response" tally={report.total.response} />
        <Summary label="Resolution" tally={report.total.resolution} />
      </Stack>

      <ReportSection id="sl-by-severity" title="By Type and Severity">
        <ReportTable
          labelledBy="sl-by-severity"
          emptyText={`No clock was decided in ${monthName(report.month)}.`}
          head={
            <>
              <TableCell>Work Unit Type</TableCell>
              <TableCell>Severity</TableCell>
              <TableCell align="right">Response</TableCell>
              <TableCell align="right">Resolution</TableCell>
            </>
          }
          rows={report.rows.map((row) => (
            <TableRow key={`${row.workUnitTypeId} ${row.severityId}`}>
              <TableCell>{row.workUnitTypeName}</TableCell>
              <TableCell>{SEVERITY_LABELS[row.severityId] ?? row.severityId}</TableCell>
              <AttainmentCell tally={row.response} />
              <AttainmentCell tally={row.resolution} />
            </TableRow>
          ))}
        />
      </ReportSection>

      <ReportSection id="sl-by-week" title="By Week">
        <Paper variant="outlined" sx={{ p: 1 }}>
          <BarChart
            height={260}
            xAxis={[
              {
                scaleType: 'band',
                data: report.weeks.map((week) => `Week of ${formatDate(`${week.week}T12:00:00Z`)}`),
              },
            ]}
            yAxis={[{ min: 0, max: 100, valueFormatter: (value: number) => `${value}%` }]}
            series={[
              {
                label: 'Response',
                data: report.weeks.map((week) => percentOf(week.response)),
                valueFormatter: (value: number | null) => (value === null ? 'none decided' : `${value}%`),
              },
              {
                label: 'Resolution',
                data: report.weeks.map((week) => percentOf(week.resolution)),
                valueFormatter: (value: number | null) => (value === null ? 'none decided' : `${value}%`),
              },
            ]}
          />
        </Paper>
      </ReportSection>

      <ReportSection id="sl-breaches" title="Missed Targets">
        <ReportTable
          labelledBy="sl-breaches"
          emptyText={`No target was missed in ${monthName(report.month)}.`}
          head={
            <>
              <TableCell>Work Unit</TableCell>
              <TableCell>Severity</TableCell>
              <TableCell>Clock</TableCell>
              <TableCell>Target</TableCell>
              <TableCell>Breached</TableCell>
            </>
          }
          rows={report.breaches.map((breach) => (
            <TableRow key={`${breach.workUnitId} ${breach.kind}`}>
              <TableCell>
                <Link component={RouterLink} to={`/${tenantId}/workunitsv2?workUnitId=${breach.workUnitId}`}>
                  #{breach.workUnitId} {breach.title}
                </Link>
              </TableCell>
              <TableCell>{SEVERITY_LABELS[breach.severityId] ?? breach.severityId}</TableCell>
              <TableCell>{breach.kind === 'response' ? 'Response' : 'Resolution'}</TableCell>
              <TableCell>{formatSpan(breach.target)}</TableCell>
              <TableCell>{formatDateTime(breach.breached)}</TableCell>
            </TableRow>
          ))}
        />
        {!report.breachesComplete && (
          <Typography variant="caption" color="text.secondary">
            The first {SERVICE_LEVEL_REPORT_BREACHES} missed targets are listed; the figures above count every one.
          </Typography>
        )}
      </ReportSection>
    </Stack>
  );
}

/**
 * The service level report of the tenant in the path for a month (docs/features/service-levels.md
 * "The report"): attainment in total, per type and severity and per week, the missed targets
 * linked to their units, a CSV export, and a page that prints without the controls. The month is
 * in the address (`?month=YYYY-MM`).
 */
export default function ServiceLevelReportPage() {
  const tenantId = useTenantId();
  const [monthParam, setMonth] = useQueryParam('month');
  const month = monthFromAddress(monthParam);
  const report = useQuery({
    queryKey: ['servicelevels', 'report', tenantId, month],
    queryFn: ({ signal }) => apiGet<JsonOf<ServiceLevelReport>>(reportPath(tenantId), { month }, { signal }),
    enabled: tenantId !== '',
  });
  const exportCsv = useApiMutation({
    mutationFn: () =>
      apiDownloadNamed('GET', `${reportPath(tenantId)}/csv?month=${month}`, undefined, `service-levels-${month}.csv`),
    errorMessage: 'The service level report could not be exported.',
  });
  return (
    <>
      <PageHeader
        title="Service Level Report"
        documentTitle={`Service Level Report ${monthName(month)}`}
        actions={
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', ...SCREEN_ONLY }}>
            <Tooltip title="Month Before">
              <IconButton aria-label="Month Before" onClick={() => setMonth(shiftMonth(month, -1))}>
                <ChevronLeftIcon />
              </IconButton>
            </Tooltip>
            <TextField
              size="small"
              type="month"
              label="Month"
              value={month}
              onChange={(event) => setMonth(event.target.value || null)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <Tooltip title="Month After">
              <IconButton aria-label="Month After" onClick={() => setMonth(shiftMonth(month, 1))}>
                <ChevronRightIcon />
              </IconButton>
            </Tooltip>
            <Button
              startIcon={<FileDownloadIcon />}
              disabled={!report.data || exportCsv.isPending}
              onClick={() => exportCsv.mutate()}
            >
              Export CSV
            </Button>
            <Button startIcon={<PrintIcon />} disabled={!report.data} onClick={() => window.print()}>
              Print
            </Button>
          </Stack>
        }
      />
      {report.isPending && <LinearProgress aria-label="Loading the report" />}
      {report.error && <Alert severity="error">{report.error.message}</Alert>}
      {report.data && <Report report={report.data} tenantId={tenantId} />}
    </>
  );
}

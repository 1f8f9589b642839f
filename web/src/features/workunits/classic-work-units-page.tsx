import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from '../../lib/router';
import { SEVERITY_LABELS, STATE_LABELS } from '@cfs/contracts/values/work-units';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { DateWithAge } from '../../components/date-with-age';
import { positiveIntId } from '../../lib/ids';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useQueryParam } from '../../lib/url-state';
import { useClassicWorkUnits } from './api';
import { PersonLabel } from '../../components/person-label';

/** The old experience pages by 50, without a size choice. */
const CLASSIC_PAGE_SIZE = 50;

/**
 * The old work-units page (spec 001 §2 "Return to the old experience"): a plain read-only table
 * of the same work units, newest first, 50 a page with Previous/Next (`?page=` counts from 1).
 */
export default function ClassicWorkUnitsPage() {
  const tenantId = useTenantId();
  const [pageParam, setPageParam] = useQueryParam('page');
  const page = (positiveIntId(pageParam) ?? 1) - 1;
  const result = useClassicWorkUnits(tenantId, page, CLASSIC_PAGE_SIZE);
  const total = result.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / CLASSIC_PAGE_SIZE));
  const goTo = (next: number) => setPageParam(next === 0 ? null : String(next + 1));
  const unknown = SHELL_MESSAGES.unknownEnum;

  return (
    <>
      <PageHeader
        title="Work Units (old experience)"
        actions={
          <Link component={RouterLink} to={`/${tenantId}/workunitsv2`} variant="body2" sx={{ alignSelf: 'center' }}>
            Go to the new experience
          </Link>
        }
      />
      <Paper variant="outlined">
        {result.isFetching && <LinearProgress />}
        <TableContainer>
          <Table size="small" aria-label="Work units">
            <TableHead>
              <TableRow>
                {['ID', 'Title', 'Severity', 'State', 'Tenant', 'Assigned To', 'Created'].map((header) => (
                  <TableCell key={header}>{header}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {(result.data?.rows ?? []).map((row) => (
                <TableRow key={row.workUnitId} hover>
                  <TableCell>{row.workUnitId}</TableCell>
                  <TableCell>
                    <Link component={RouterLink} to={`/${tenantId}/workunitsv2?workUnitId=${row.workUnitId}`}>
                      {row.title}
                    </Link>
                  </TableCell>
                  <TableCell>{SEVERITY_LABELS[row.severityId] ?? unknown}</TableCell>
                  <TableCell>{STATE_LABELS[row.stateId] ?? unknown}</TableCell>
                  <TableCell>{row.tenant?.name ?? ''}</TableCell>
                  <TableCell>
                    <PersonLabel value={row.assignedTo} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <DateWithAge value={row.created} />
                  </TableCell>
                </TableRow>
              ))}
              {result.isSuccess && total === 0 && (
                <TableRow>
                  <TableCell colSpan={7}>No work units found.</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 1, justifyContent: 'flex-end' }}>
          <Typography variant="body2" color="text.secondary">
            Page {page + 1} of {pages} · {total} work units
          </Typography>
          <Button size="small" disabled={page === 0} onClick={() => goTo(page - 1)}>
            Previous
          </Button>
          <Button size="small" disabled={page + 1 >= pages} onClick={() => goTo(page + 1)}>
            Next
          </Button>
        </Box>
      </Paper>
    </>
  );
}

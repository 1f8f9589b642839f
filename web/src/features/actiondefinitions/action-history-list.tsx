import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { ACTION_RESULT_LABELS } from '@cfs/contracts/action-histories';
import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { DateWithAge } from '../../components/date-with-age';
import { useActionHistories, useActionHistoryDetail, type ActionHistoryDetail } from './api';
import { durationText, headerLines } from './action-definition-values';

const statusColor = (statusId: number): 'success' | 'error' | 'warning' | 'default' =>
  statusId === ACTION_RESULT_STATUSES.Success || statusId === ACTION_RESULT_STATUSES.EnqueueSuccess
    ? 'success'
    : statusId === ACTION_RESULT_STATUSES.Failure || statusId === ACTION_RESULT_STATUSES.EnqueueFailure
      ? 'error'
      : statusId === ACTION_RESULT_STATUSES.Suppressed
        ? 'warning'
        : 'default';

export function ResultChip({ statusId }: { statusId: number }) {
  return (
    <Chip
      size="small"
      label={ACTION_RESULT_LABELS[statusId] ?? String(statusId)}
      color={statusColor(statusId)}
      variant="outlined"
    />
  );
}

export interface ActionHistoryListProps {
  /** OData filter of the entries, e.g. ``actionDefinitionId eq ${id}`` or ``messageId eq '…'``; null: nothing yet. */
  filter: string | null;
  /** Reads again this often while there is no entry (a test's run arrives a moment later). */
  pollMs?: number;
  /** Shown while there is no entry. */
  emptyText?: string;
}

/** Action history entries (spec 002 §3 ActionHistory), newest first; each opens a detail dialog. */
export function ActionHistoryList({ filter, pollMs, emptyText = 'No History Found.' }: ActionHistoryListProps) {
  const history = useActionHistories(filter, pollMs ? { pollMs } : {});
  const [openId, setOpenId] = useState<number | null>(null);
  if (filter === null) return null;
  if (history.isError) return <Alert severity="error">The action history could not be loaded.</Alert>;
  const rows = history.data?.rows ?? [];
  return (
    <Box>
      {history.isFetching && <LinearProgress />}
      {history.data && rows.length === 0 && <Typography color="text.secondary">{emptyText}</Typography>}
      {rows.length > 0 && (
        <Table size="small" aria-label="Action history">
          <TableHead>
            <TableRow>
              <TableCell>Processed</TableCell>
              <TableCell>Action</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Detail</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.actionHistoryId} hover data-testid="action-history-row">
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <DateWithAge value={row.actionProcessed} />
                </TableCell>
                <TableCell>{row.actionDefinition?.name ?? row.actionDefinitionId}</TableCell>
                <TableCell>
                  <ResultChip statusId={row.resultStatusId} />
                </TableCell>
                <TableCell
                  sx={{ maxWidth: '24rem', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  title={row.resultDetail ?? ''}
                >
                  {row.resultDetail}
                </TableCell>
                <TableCell align="right">
                  <Button size="small" onClick={() => setOpenId(row.actionHistoryId)}>
                    Details
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ActionRunDialog id={openId} onClose={() => setOpenId(null)} />
    </Box>
  );
}

/** What the run sent and what came back (secrets masked by the server). */
function ActionRunDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const detail = useActionHistoryDetail(id);
  return (
    <Dialog open={id !== null} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>Action Run Details</DialogTitle>
      <DialogContent dividers>
        {detail.isPending && <LinearProgress />}
        {detail.isError && <Alert severity="error">The details could not be loaded.</Alert>}
        {detail.data && <RunDetail run={detail.data} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

const preformatted = {
  m: 0,
  p: 1,
  bgcolor: 'action.hover',
  borderRadius: 1,
  fontFamily: 'monospace',
  fontSize: '0.8rem',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  maxHeight: '16rem',
  overflow: 'auto',
} as const;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ mb: 1.5 }}>
      <Typography variant="subtitle2" component="h3">
        {label}
      </Typography>
      {children}
    </Box>
  );
}

function RunDetail({ run }: { run: ActionHistoryDetail }) {
  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <Typography variant="h6" component="p">
          {run.actionDefinition?.name ?? run.actionDefinitionId}
        </Typography>
        <ResultChip statusId={run.resultStatusId} />
        <Typography variant="body2" color="text.secondary">
          <DateWithAge value={run.actionProcessed} /> · Duration {durationText(run.durationMs)}
        </Typography>
      </Box>
      {run.resultDetail && <Field label="Result">{<Typography variant="body2">{run.resultDetail}</Typography>}</Field>}
      {run.inputParameters && (
        <Field label="Input Parameters">
          <Box component="pre" sx={preformatted}>
            {run.inputParameters}
          </Box>
        </Field>
      )}
      <Typography variant="subtitle1" component="h2" sx={{ mt: 2 }}>
        Request
      </Typography>
      {run.request ? (
        <>
          <Field label="Method and URL">
            <Box component="pre" sx={preformatted}>{`${run.request.method} ${run.request.url}`}</Box>
          </Field>
          <Field label="Request Headers">
            <Box component="pre" sx={preformatted}>
              {headerLines(run.request.headers) || '(none)'}
            </Box>
          </Field>
          <Field label="Request Body">
            <Box component="pre" sx={preformatted}>
              {run.request.body ?? '(none)'}
            </Box>
          </Field>
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          No HTTP request was sent.
        </Typography>
      )}
      <Typography variant="subtitle1" component="h2" sx={{ mt: 2 }}>
        Response
      </Typography>
      {run.responseStatus !== null ? (
        <>
          <Field label="Status">
            <Typography variant="body2">{run.responseStatus}</Typography>
          </Field>
          <Field label="Response Headers">
            <Box component="pre" sx={preformatted}>
              {headerLines(run.responseHeaders) || '(none)'}
            </Box>
          </Field>
          <Field label="Response Body">
            <Box component="pre" sx={preformatted}>
              {run.responseBody ?? '(none)'}
            </Box>
          </Field>
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          No response was received.
        </Typography>
      )}
    </Box>
  );
}

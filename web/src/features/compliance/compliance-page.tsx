import { useMemo, useState } from 'react';
import dayjs from 'dayjs';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { calendarDate, CONTROL_STATUS_MESSAGES, weekStart } from '@cfs/contracts/compliance';
import { usePermissions } from '../../auth/session-data';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useQueryParam } from '../../lib/url-state';
import { useControlSetOptions, useControlSetWeek, useCopyLastWeek, useExportWeek } from './api';
import { ComplianceWeekPicker } from './compliance-week-picker';
import { ControlStatusTable, type ControlPermissions } from './control-status-table';
import { useControlStatusEditor } from './use-control-status-editor';

const UploadControlSetDialog = lazyWhenOpened(
  () => import('./upload-control-set-dialog'),
  (props) => props.open,
);

const READ_ONLY: ControlPermissions = { create: false, edit: false, delete: false };

/** The week of a date in the address, or this week (the user's own calendar). */
function weekFromAddress(text: string | null): string {
  const date = text === null ? null : calendarDate(text);
  return weekStart(date ?? dayjs().format('YYYY-MM-DD'));
}

/**
 * Compliance checklist (spec 002 §2, route /{tenantId}/compliance): a Control Set selector, a
 * Compliance Week picker and the grid Control / Status / Notes, where each control's status for
 * the week is chosen on a five-choice toggle and its notes are saved as the field loses focus
 * (the transitions of §4 and messages of §8 in `useControlStatusEditor`). The set and the week
 * are in the address (`?controlSetId=&week=`), so a link opens the same week.
 */
export default function CompliancePage() {
  const tenantId = useTenantId();
  const permissions = usePermissions();
  // One object while the permissions stay: every row is memoised on it.
  const can = useMemo<ControlPermissions>(
    () => ({
      create: permissions.has('Compliance', 'create'),
      edit: permissions.has('Compliance', 'edit'),
      delete: permissions.has('Compliance', 'delete'),
    }),
    [permissions],
  );
  const [setParam, setControlSetId] = useQueryParam('controlSetId');
  const [weekParam, setWeek] = useQueryParam('week');
  const week = weekFromAddress(weekParam);
  const sets = useControlSetOptions(tenantId);
  const options = sets.data ?? [];
  const controlSetId = options.find((set) => set.id === setParam)?.id ?? options[0]?.id;
  const rows = useControlSetWeek(tenantId, controlSetId, week);
  const editor = useControlStatusEditor(tenantId, controlSetId ?? '', week);
  const copy = useCopyLastWeek();
  const exportWeek = useExportWeek();
  const [uploading, setUploading] = useState(false);
  const controls = rows.data?.controls ?? [];
  const selected = options.find((set) => set.id === controlSetId);

  return (
    <>
      <PageHeader
        title="Compliance"
        actions={
          <>
            {can.create && (
              <Button
                startIcon={<ContentCopyIcon />}
                disabled={!controlSetId || copy.isPending}
                onClick={() => controlSetId && copy.mutate({ controlSetId, tenantId, checkDate: week })}
              >
                Copy last week
              </Button>
            )}
            <Button
              variant="outlined"
              startIcon={<FileDownloadIcon />}
              disabled={!controlSetId || exportWeek.isPending}
              onClick={() => controlSetId && exportWeek.mutate({ startDate: week, tenantId, controlSetId })}
            >
              {exportWeek.isPending ? 'Exporting...' : 'Export'}
            </Button>
            {can.create && (
              <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setUploading(true)}>
                Upload Control Set
              </Button>
            )}
          </>
        }
      />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <TextField
          select
          size="small"
          label="Control Set"
          value={controlSetId ?? ''}
          onChange={(event) => setControlSetId(event.target.value)}
          sx={{ minWidth: 320 }}
          disabled={options.length === 0}
        >
          {options.map((set) => (
            <MenuItem key={set.id} value={set.id}>
              {set.name}
            </MenuItem>
          ))}
        </TextField>
        <ComplianceWeekPicker value={week} onChange={setWeek} />
      </Box>
      {selected?.description && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {selected.description}
        </Typography>
      )}
      {(sets.isPending || rows.isFetching) && <LinearProgress aria-label="Loading controls" sx={{ mb: 1 }} />}
      {(sets.isError || rows.isError) && <Alert severity="error">The control sets could not be loaded.</Alert>}
      {sets.data && options.length === 0 && <Typography color="text.secondary">No control sets found.</Typography>}
      {rows.data && (
        // The previous week's rows stay on screen while the next loads: shown, not edited.
        <ControlStatusTable
          controls={controls}
          permissions={rows.isPlaceholderData ? READ_ONLY : can}
          onChooseStatus={editor.chooseStatus}
          onSaveNotes={editor.saveNotes}
        />
      )}
      <ConfirmDialog
        open={editor.deleting !== null}
        title={editor.deleting ? `${editor.deleting.name} ${editor.deleting.title}` : ''}
        text={CONTROL_STATUS_MESSAGES.confirmDelete}
        confirmLabel="Delete"
        cancelLabel="Cancel"
        onConfirm={() => editor.confirmDelete()}
        onCancel={editor.cancelDelete}
      />
      <UploadControlSetDialog
        open={uploading}
        tenantId={tenantId}
        canShare={permissions.has('Tenants', 'edit')}
        onClose={() => setUploading(false)}
        onUploaded={(id) => setControlSetId(id)}
      />
    </>
  );
}

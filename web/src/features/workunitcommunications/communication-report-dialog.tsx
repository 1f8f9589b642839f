import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import {
  reportLink,
  useActivities,
  useCommunicationByPublicId,
  usePublishReport,
  useRevokeReport,
  type Communication,
} from './api';
import { externalReport, internalReport } from './report-model';
import { ReportView } from './report-view';

export type ReportKind = 'external' | 'internal';

export interface CommunicationReportDialogProps {
  /** The communication's public id and which report, or null when closed. */
  open: { publicId: number; kind: ReportKind } | null;
  /** Whether the user may publish and revoke the external link (WorkUnitCommunications edit). */
  canPublish: boolean;
  onClose: () => void;
}

/** The External Report and Internal Report row actions (spec 001 §2): a data table each. */
export default function CommunicationReportDialog({ open, canPublish, onClose }: CommunicationReportDialogProps) {
  const communication = useCommunicationByPublicId(open ? String(open.publicId) : null);
  const kind = open?.kind ?? 'external';
  return (
    <Dialog open={open !== null} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="communication-report-title">
      <DialogTitle id="communication-report-title">
        {kind === 'external' ? 'External Report' : 'Internal Report'}
      </DialogTitle>
      <DialogContent dividers>
        {communication.isPending && <LinearProgress />}
        {communication.isError && <Typography color="error">{communication.error.message}</Typography>}
        {communication.data === null && (
          <Typography color="text.secondary">This communication does not exist.</Typography>
        )}
        {communication.data && <ReportContent communication={communication.data} kind={kind} canPublish={canPublish} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function ReportContent({
  communication,
  kind,
  canPublish,
}: {
  communication: Communication;
  kind: ReportKind;
  canPublish: boolean;
}) {
  const activities = useActivities(communication.workUnitCommunicationId);
  const rows = activities.data?.rows ?? communication.workUnitCommunicationActivities ?? [];
  const report = kind === 'external' ? externalReport(communication, rows) : internalReport(communication, rows);
  return (
    <>
      <Typography variant="h6" component="p" sx={{ mb: 1 }}>
        {report.heading}
      </Typography>
      {kind === 'external' && <PublishedLink communication={communication} canPublish={canPublish} />}
      <ReportView report={report} />
    </>
  );
}

/** The external report's public link: publish, copy, revoke (beyond the spec). */
function PublishedLink({ communication, canPublish }: { communication: Communication; canPublish: boolean }) {
  const id = communication.workUnitCommunicationId;
  const publish = usePublishReport(id);
  const revoke = useRevokeReport(id);
  const [revoking, setRevoking] = useState(false);
  const path = communication.externalReportPath;
  return (
    <Box sx={{ mb: 2 }}>
      {path ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <TextField
            size="small"
            fullWidth
            label="Published link"
            value={reportLink(path)}
            slotProps={{ htmlInput: { readOnly: true } }}
          />
          <CopyButton text={reportLink(path)} label="Copy link" />
          {canPublish && (
            <Button color="error" variant="outlined" onClick={() => setRevoking(true)} disabled={revoke.isPending}>
              Revoke
            </Button>
          )}
        </Box>
      ) : (
        <Alert
          severity="info"
          action={
            canPublish ? (
              <Button color="inherit" size="small" onClick={() => publish.mutate()} disabled={publish.isPending}>
                Publish link
              </Button>
            ) : undefined
          }
        >
          This report is not published. A published link shows it to anyone who has the link, without signing in.
        </Alert>
      )}
      <ConfirmDialog
        open={revoking}
        title="Revoke link"
        text="Are you sure you want to revoke the published link? Anyone who has it will no longer see the report."
        onConfirm={() => revoke.mutateAsync().then(() => setRevoking(false))}
        onCancel={() => setRevoking(false)}
      />
    </Box>
  );
}

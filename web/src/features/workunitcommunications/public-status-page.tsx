import { useQuery } from '@tanstack/react-query';
import { useParams } from '../../lib/router';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { COMMUNICATION_MESSAGES } from '@cfs/contracts/communications';
import { ApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/dates';
import { useDocumentTitle } from '../../lib/document-title';
import { publicReportQuery } from './api';
import { publishedReport } from './report-model';
import { ReportView } from './report-view';

/** How often the page reads the report again while it is open. */
const REFRESH_MS = 60_000;

/**
 * A published external report at /status/{token}: read-only, no sign-in, read again every
 * 60 s; an unknown or revoked link says "This report is not available.".
 */
export default function PublicStatusPage() {
  const { token = '' } = useParams();
  const report = useQuery(publicReportQuery(token, REFRESH_MS));
  const unavailable = report.error instanceof ApiError && report.error.status === 404;
  const model = report.data ? publishedReport(report.data) : null;
  useDocumentTitle(model ? model.heading : 'Status');
  return (
    <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'background.default', px: { xs: 2, sm: 4 }, py: 4 }}>
      <Box sx={{ maxWidth: 960, mx: 'auto' }}>
        {report.isPending && <LinearProgress />}
        {(unavailable || (report.isError && !report.data)) && (
          <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
            <Typography variant="h5" component="h1">
              {unavailable
                ? COMMUNICATION_MESSAGES.reportNotPublished
                : 'The report could not be loaded. It is read again every minute.'}
            </Typography>
          </Paper>
        )}
        {model && !unavailable && (
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
            <Typography variant="h5" component="h1" sx={{ mb: 0.5 }}>
              {model.heading}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              Read at {formatDateTime(report.dataUpdatedAt)}; this page refreshes every minute.
            </Typography>
            <ReportView report={model} />
          </Paper>
        )}
      </Box>
    </Box>
  );
}

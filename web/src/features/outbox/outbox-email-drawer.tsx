import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { SideDrawer } from '../../components/side-drawer';
import { formatDateTime } from '../../lib/dates';
import { deliveryStatus, useOutboxEmail, type OutboxEmail } from './api';
import { FactList, FactRows } from '../../components/fact-list';

export interface OutboxEmailDrawerProps {
  id: string | null;
  onClose: () => void;
}

/** One email of the Outbox: its recipients, delivery and body. */
export default function OutboxEmailDrawer({ id, onClose }: OutboxEmailDrawerProps) {
  const email = useOutboxEmail(id);
  return (
    <SideDrawer open={id !== null} onClose={onClose} title={email.data ? email.data.subject : 'Email'}>
      {!email.notFound && email.isPending && <LinearProgress />}
      {email.notFound && <Typography color="text.secondary">This email does not exist.</Typography>}
      {email.data && <EmailDetails email={email.data} />}
    </SideDrawer>
  );
}

function EmailDetails({ email }: { email: OutboxEmail }) {
  const status = deliveryStatus(email);
  const rows: [string, string][] = [
    ['To', email.to || '—'],
    ...(email.cc ? [['Cc', email.cc] as [string, string]] : []),
    ...(email.bcc ? [['Bcc', email.bcc] as [string, string]] : []),
    ['Template', `${email.template}${email.isImportant ? ' (important)' : ''}`],
    ['Tenant', email.tenant?.name ?? '—'],
    ...(email.workUnitId !== null ? [['Work unit', `#${email.workUnitId}`] as [string, string]] : []),
    ['Created', formatDateTime(email.created)],
    ['Transport', email.transport === 'smtp' ? 'SMTP' : 'Outbox (no SMTP server configured)'],
    ...(email.sent ? [['Sent', formatDateTime(email.sent)] as [string, string]] : []),
  ];
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box>
        <Chip
          size="small"
          label={status.label}
          color={status.color}
          variant={status.color === 'default' ? 'outlined' : 'filled'}
        />
      </Box>
      <FactList wrap="break-word" sx={{ typography: 'body2' }}>
        <FactRows rows={rows} />
      </FactList>
      {email.error && <Alert severity="error">{email.error}</Alert>}
      {/* The body is HTML the portal rendered with every value escaped; it is still shown in a sandbox that runs no script and opens nothing. */}
      <Box
        component="iframe"
        title="Email body"
        sandbox=""
        srcDoc={email.body}
        referrerPolicy="no-referrer"
        sx={{ width: '100%', minHeight: 480, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
      />
    </Box>
  );
}

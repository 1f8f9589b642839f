import HistoryIcon from '@mui/icons-material/History';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiGet } from '../lib/api-client';
import { DateWithAge } from './date-with-age';

interface AuditEvent {
  auditEventId: number;
  occurredAt: string;
  actorName: string;
  action: string;
  changes: Record<string, unknown>;
}

const show = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? '(empty)'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** One line per changed field: `{ field: { from, to } }` entries and plain created values alike. */
export function describeAuditChanges(changes: Record<string, unknown>): string[] {
  return Object.entries(changes).map(([field, change]) => {
    if (change && typeof change === 'object' && 'from' in change && 'to' in change) {
      const { from, to } = change as { from: unknown; to: unknown };
      return `${field}: ${show(from)} → ${show(to)}`;
    }
    return `${field}: ${show(change)}`;
  });
}

/**
 * Who changed an item, when and what (the audit trail the server keeps for every write), as a
 * header button of the item's drawer.
 *
 * @example
 *   <SideDrawer headerActions={tenantId && <AuditHistoryButton entityType="tenant" entityId={tenantId} />} …>
 */
export function AuditHistoryButton({ entityType, entityId }: { entityType: string; entityId: string }) {
  const [open, setOpen] = useState(false);
  const events = useQuery({
    queryKey: ['auditEvents', entityType, entityId],
    queryFn: ({ signal }) => apiGet<{ value: AuditEvent[] }>('/v1/auditEvents', { entityType, entityId }, { signal }),
    enabled: open,
    // Stale at once, so every opening reads it again: the drawer's saves happen while it is closed.
    staleTime: 0,
  });
  return (
    <>
      <Button size="small" startIcon={<HistoryIcon />} onClick={() => setOpen(true)}>
        History
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="audit-history-title">
        <DialogTitle id="audit-history-title">Change history</DialogTitle>
        <DialogContent dividers>
          {events.isFetching && <LinearProgress />}
          {events.isError && <Typography color="error">The history could not be loaded.</Typography>}
          {events.data?.value.length === 0 && <Typography color="text.secondary">No changes recorded.</Typography>}
          <List dense disablePadding>
            {events.data?.value.map((event) => (
              <ListItem key={event.auditEventId} disableGutters divider alignItems="flex-start">
                <ListItemText
                  primary={
                    <>
                      <DateWithAge value={event.occurredAt} /> · {event.actorName} · {event.action}
                    </>
                  }
                  secondary={describeAuditChanges(event.changes).join('\n') || null}
                  slotProps={{ secondary: { sx: { whiteSpace: 'pre-line' } } }}
                />
              </ListItem>
            ))}
          </List>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

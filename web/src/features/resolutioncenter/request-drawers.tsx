import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import PhoneCallbackIcon from '@mui/icons-material/PhoneCallback';
import { resolutionCenterStatus, WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import { DateWithAge } from '../../components/date-with-age';
import { SideDrawer } from '../../components/side-drawer';
import { useCallMe, useExternalNotes, useResolutionCenterUnit, type ResolutionCenterUnit } from './api';
import { RequestForm } from './request-form';

/** The details drawer's height limit (spec 001 §9). */
const DETAILS_MAX_HEIGHT = '885px';

export interface RequestDrawerProps {
  /** `new` for Create Request, else the request's id (`?workUnitId=`). */
  id: string | null;
  tenantId: string;
  onCreated: (created: ResolutionCenterUnit) => void;
  onClose: () => void;
}

/** Create Request, or a request's read-only details with its external notes and Call Me. */
export default function RequestDrawer({ id, tenantId, onCreated, onClose }: RequestDrawerProps) {
  if (id === 'new') {
    return (
      <SideDrawer open onClose={onClose} title="Create Request">
        <RequestForm tenantId={tenantId} onCreated={onCreated} />
      </SideDrawer>
    );
  }
  return <RequestDetails id={id} onClose={onClose} />;
}

function RequestDetails({ id, onClose }: { id: string | null; onClose: () => void }) {
  const unit = useResolutionCenterUnit(id);
  const data = unit.data;
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      maxHeight={DETAILS_MAX_HEIGHT}
      title={data ? `#${data.workUnitId} ${data.title}` : 'Request'}
    >
      {!unit.notFound && unit.isPending && <LinearProgress />}
      {unit.notFound && <Typography color="text.secondary">This request does not exist.</Typography>}
      {/* Keyed by the request: another one opened starts with its own Call Me. */}
      {data && <Details key={data.workUnitId} unit={data} />}
    </SideDrawer>
  );
}

function Details({ unit }: { unit: ResolutionCenterUnit }) {
  const notes = useExternalNotes(unit.workUnitId);
  const callMe = useCallMe(unit.workUnitId);
  const status = resolutionCenterStatus(unit.stateId);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <Chip size="small" label={status} color={status === 'Done' ? 'success' : 'primary'} />
        <Typography variant="body2" color="text.secondary">
          Created <DateWithAge value={unit.created} />
        </Typography>
      </Box>
      <Typography variant="body1" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {unit.description}
      </Typography>
      <Box>
        <Button
          variant="outlined"
          startIcon={<PhoneCallbackIcon />}
          // Asked once while the request is open: a second press would only add a second note.
          disabled={callMe.isPending || callMe.isSuccess}
          onClick={() => callMe.mutate()}
        >
          {callMe.isSuccess ? 'Call Back Requested' : 'Call Me'}
        </Button>
      </Box>
      <Box component="section" aria-label="Notes">
        <Typography variant="subtitle1" component="h3">
          Notes
        </Typography>
        {notes.isPending && <LinearProgress />}
        {notes.data?.length === 0 && <Typography color="text.secondary">{WORK_UNIT_MESSAGES.noNotes}</Typography>}
        <List dense>
          {notes.data?.map((note) => (
            <ListItem key={note.workUnitNoteId} divider sx={{ display: 'block' }}>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {note.detail}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                <DateWithAge value={note.created} />
              </Typography>
            </ListItem>
          ))}
        </List>
      </Box>
    </Box>
  );
}

import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { AuditHistoryButton } from '../../components/audit-history';
import { SideDrawer } from '../../components/side-drawer';
import { useLocation, type Location } from './api';
import { LocationForm } from './location-form';

export interface LocationDrawerProps {
  id: string | null;
  tenantId: string | null;
  onCreated: (saved: Location) => void;
  onClose: () => void;
}

/** Create/Edit Location (spec 002 §2), addressed by `?locationId=`. */
export default function LocationDrawer({ id, tenantId, onCreated, onClose }: LocationDrawerProps) {
  const location = useLocation(id);
  const creating = id === 'new';
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      title={creating ? 'Create Location' : `Edit Location${location.data ? `: ${location.data.name}` : ''}`}
      headerActions={location.data && <AuditHistoryButton entityType="location" entityId={location.data.locationId} />}
    >
      {!creating && location.isPending && <LinearProgress />}
      {!creating && location.isError && <Typography color="text.secondary">This location does not exist.</Typography>}
      {id !== null && (creating || location.data) && (
        <LocationForm
          key={id}
          id={id}
          location={location.data}
          tenantId={tenantId}
          onSaved={(saved) => (creating ? onCreated(saved) : undefined)}
          onClose={onClose}
        />
      )}
    </SideDrawer>
  );
}

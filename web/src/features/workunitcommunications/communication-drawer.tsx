import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { SideDrawer } from '../../components/side-drawer';
import { isReportedByClient } from '../../lib/api-client';
import { positiveIntId } from '../../lib/ids';
import { useQueryParam } from '../../lib/url-state';
import { useCommunicationByPublicId, type Communication } from './api';
import { CommunicationActivities } from './communication-activities';
import { CommunicationForm, type CommunicationFormProps } from './communication-form';
import { LinkedWorkUnits } from './linked-work-units';

export interface CommunicationDrawerProps {
  /** The address's publicWuCommId: a public id, 'new', or null when closed. */
  openId: string | null;
  tenantId: string;
  canEdit: boolean;
  canCreate: boolean;
  canDelete: boolean;
  onClose: () => void;
  onCreated: (communication: Communication) => void;
}

/**
 * The communication's side drawer (spec 001 §2): "WUCOMM #{publicId}: {title}", the form, and for
 * a saved communication its linked work units and activities.
 */
export default function CommunicationDrawer({
  openId,
  tenantId,
  canEdit,
  canCreate,
  canDelete,
  onClose,
  onCreated,
}: CommunicationDrawerProps) {
  const creating = openId === 'new';
  const communication = useCommunicationByPublicId(creating ? null : openId);
  const saved = communication.data ?? undefined;
  const title = creating
    ? 'Create Communication'
    : saved
      ? `WUCOMM #${saved.publicWorkUnitCommunicationId}: ${saved.title}`
      : `WUCOMM #${openId ?? ''}`;
  const missing = !creating && openId !== null && (positiveIntId(openId) === null || communication.data === null);
  const failed = communication.isError && !isReportedByClient(communication.error);
  return (
    <SideDrawer open={openId !== null} onClose={onClose} title={title}>
      {creating && (
        <CommunicationForm
          key="new"
          tenantId={tenantId}
          canEdit={canCreate}
          canDelete={false}
          onClose={onClose}
          onCreated={onCreated}
        />
      )}
      {!creating && !missing && communication.isPending && <LinearProgress />}
      {missing && <Typography color="text.secondary">This communication does not exist.</Typography>}
      {failed && <Typography color="error">{communication.error.message}</Typography>}
      {!creating && saved && (
        <CommunicationEditor
          key={saved.workUnitCommunicationId}
          communication={saved}
          tenantId={tenantId}
          canEdit={canEdit}
          canDelete={canDelete}
          onClose={onClose}
          onCreated={onCreated}
        />
      )}
    </SideDrawer>
  );
}

const TABS = ['communication', 'workunits', 'activities'] as const;
type DrawerTab = (typeof TABS)[number];

/** A saved communication: its form and, on tabs beside it, its linked work units and its activities. */
function CommunicationEditor(props: CommunicationFormProps & { communication: Communication }) {
  const { communication, canEdit } = props;
  const [tabParam, setTab] = useQueryParam('tab');
  const tab: DrawerTab = TABS.find((candidate) => candidate === tabParam) ?? 'communication';
  const linked = communication.workUnits?.length ?? 0;
  const activities = communication.workUnitCommunicationActivities?.length ?? 0;
  // The tabs stay mounted, so switching keeps the form's edits.
  return (
    <>
      <Tabs
        value={tab}
        onChange={(_event, next: DrawerTab) => setTab(next === 'communication' ? null : next)}
        variant="scrollable"
        scrollButtons="auto"
        sx={{ mb: 1 }}
      >
        <Tab value="communication" label="Communication" />
        <Tab
          value="workunits"
          label={
            <Badge badgeContent={linked} color="primary" sx={{ pr: linked > 0 ? 1.5 : 0 }}>
              Work Units
            </Badge>
          }
        />
        <Tab
          value="activities"
          label={
            <Badge badgeContent={activities} color="primary" sx={{ pr: activities > 0 ? 1.5 : 0 }}>
              Activities
            </Badge>
          }
        />
      </Tabs>
      <Box hidden={tab !== 'communication'}>
        <CommunicationForm {...props} />
      </Box>
      <Box hidden={tab !== 'workunits'}>
        <LinkedWorkUnits communication={communication} canEdit={canEdit} />
      </Box>
      <Box hidden={tab !== 'activities'}>
        <CommunicationActivities communicationId={communication.workUnitCommunicationId} canEdit={canEdit} />
      </Box>
    </>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import type { WorkUnit } from '@cfs/contracts/work-units';
import { SideDrawer, useUnsavedChangesGuard } from '../../components/side-drawer';
import { Timeline } from '../../components/timeline';
import { ApiError, isReportedByClient } from '../../lib/api-client';
import { useQueryParam } from '../../lib/url-state';
import { useWorkUnit } from './api';
import { manualActionsKey, useManualActions } from './automation-api';
import { awaitingCount } from './manual-actions';
import { PendingActionsTab } from './pending-actions-tab';
import { PropertiesTab } from './properties-tab';
import { ProtocolsTab } from './protocols-tab';
import { RelatedTab } from './related-tab';
import { ServiceLevelClocks } from './service-level-clocks';
import { useWorkUnitForm } from './use-work-unit-form';
import { blankWorkUnit } from './work-unit-form-values';
import { WorkUnitForm } from './work-unit-form';
import { WorkUnitNotes } from './work-unit-notes';

export interface WorkUnitPanelProps {
  /** The address's workUnitId: a number, 'new', or null when closed. */
  openId: string | null;
  workUnitId: number | null;
  /** For a new unit: its type and the route's tenant. */
  newTypeId: number;
  tenantId: string;
  onClose: () => void;
  onCreated: (unit: WorkUnit) => void;
  /** Shows another unit in the panel (a related one); called once the unsaved-changes question, if any, is answered Yes. */
  onOpenWorkUnit: (workUnitId: number) => void;
  /** The address of the page with another unit open, for links that open it in a new tab. */
  workUnitHref: (workUnitId: number) => string;
}

/** The work unit panel (spec 001 §2): create or edit, with Protocols, Pending Actions, Properties and Related tabs when editing, and its Timeline. */
export default function WorkUnitPanel({
  openId,
  workUnitId,
  newTypeId,
  tenantId,
  onClose: close,
  onCreated,
  onOpenWorkUnit,
  workUnitHref,
}: WorkUnitPanelProps) {
  const unit = useWorkUnit(workUnitId);
  const queryClient = useQueryClient();
  // Spec 001 §2: closing the panel clears the pending manual actions; the next opening reads them afresh.
  const onClose = () => {
    if (workUnitId !== null) queryClient.removeQueries({ queryKey: manualActionsKey(workUnitId) });
    close();
  };
  const creating = openId === 'new';
  const title = creating
    ? 'Create Work Unit'
    : `Edit Work Unit #${workUnitId ?? ''}${unit.data ? `: ${unit.data.title}` : ''}`;
  const missing =
    (!creating && openId !== null && workUnitId === null) ||
    (unit.error instanceof ApiError && unit.error.status === 404);
  // 401/403 are answered by the API client; another failure says what the server said.
  const failed = !missing && unit.isError && !isReportedByClient(unit.error);
  return (
    <SideDrawer open={openId !== null} onClose={onClose} title={title} width="50%">
      {creating && (
        <WorkUnitEditor
          key={`new-${newTypeId}`}
          blank={blankWorkUnit(tenantId, newTypeId)}
          onClose={onClose}
          onCreated={onCreated}
          onOpenWorkUnit={onOpenWorkUnit}
          workUnitHref={workUnitHref}
        />
      )}
      {workUnitId !== null && unit.isPending && <LinearProgress />}
      {missing && <Typography color="text.secondary">This work unit does not exist.</Typography>}
      {failed && <Typography color="error">{unit.error.message}</Typography>}
      {!creating && unit.data && (
        <WorkUnitEditor
          key={unit.data.workUnitId}
          unit={unit.data}
          onClose={onClose}
          onCreated={onCreated}
          onOpenWorkUnit={onOpenWorkUnit}
          workUnitHref={workUnitHref}
        />
      )}
    </SideDrawer>
  );
}

const TABS = ['workunit', 'protocols', 'pending', 'properties', 'related', 'timeline'] as const;
type PanelTab = (typeof TABS)[number];

interface WorkUnitEditorProps {
  unit?: WorkUnit;
  blank?: ReturnType<typeof blankWorkUnit>;
  onClose: () => void;
  onCreated: (unit: WorkUnit) => void;
  onOpenWorkUnit: (workUnitId: number) => void;
  workUnitHref: (workUnitId: number) => string;
}

function WorkUnitEditor({ unit, blank, onClose, onCreated, onOpenWorkUnit, workUnitHref }: WorkUnitEditorProps) {
  const editor = useWorkUnitForm({ unit, blank, onCreated });
  const guard = useUnsavedChangesGuard();
  const [tabParam, setTab] = useQueryParam('tab');
  const saved = editor.base;
  // The manual actions waiting on the unit's current state: the banner, the badge and the tab.
  const pending = useManualActions(saved?.workUnitId ?? 0, 'current', typeof saved?.protocolId === 'number');
  if (!saved) return <WorkUnitForm editor={editor} onClose={onClose} />;
  const tab: PanelTab = TABS.find((candidate) => candidate === tabParam) ?? 'workunit';
  const awaiting = typeof saved.protocolId === 'number' ? awaitingCount(pending.data) : 0;
  // The tabs stay mounted, so switching keeps the form's edits.
  return (
    <>
      <Tabs
        value={tab}
        onChange={(_event, next: PanelTab) => setTab(next === 'workunit' ? null : next)}
        variant="scrollable"
        scrollButtons="auto"
        sx={{ mb: 1 }}
      >
        <Tab value="workunit" label="Work Unit" />
        <Tab value="protocols" label="Protocols" />
        <Tab
          value="pending"
          label={
            awaiting > 0 ? (
              <Badge badgeContent={awaiting} color="warning" sx={{ pr: 1.5 }}>
                Pending Actions
              </Badge>
            ) : (
              'Pending Actions'
            )
          }
        />
        <Tab value="properties" label="Properties" />
        <Tab
          value="related"
          label={
            <Badge
              badgeContent={saved.relations.length}
              color="primary"
              sx={{ pr: saved.relations.length > 0 ? 1.5 : 0 }}
            >
              Related
            </Badge>
          }
        />
        <Tab value="timeline" label="Timeline" />
      </Tabs>
      <Box hidden={tab !== 'workunit'}>
        {awaiting > 0 && (
          <Alert
            severity="warning"
            sx={{ mb: 1 }}
            action={
              <Button color="inherit" size="small" onClick={() => setTab('pending')}>
                Review
              </Button>
            }
          >
            {AUTOMATION_MESSAGES.pendingBanner}
          </Alert>
        )}
        <ServiceLevelClocks workUnitId={saved.workUnitId} />
        <WorkUnitForm editor={editor} onClose={onClose} />
        <WorkUnitNotes workUnitId={saved.workUnitId} />
      </Box>
      <Box hidden={tab !== 'protocols'}>
        <ProtocolsTab workUnitId={saved.workUnitId} protocolId={saved.protocolId} active={tab === 'protocols'} />
      </Box>
      <Box hidden={tab !== 'pending'}>
        <PendingActionsTab workUnitId={saved.workUnitId} actions={pending} />
      </Box>
      <Box hidden={tab !== 'properties'}>
        <PropertiesTab properties={saved.properties} />
      </Box>
      <Box hidden={tab !== 'related'}>
        {/* Another unit replaces this editor, its edits and the note being written: ask first. */}
        <RelatedTab
          unit={saved}
          onUpdated={editor.rebase}
          onOpenWorkUnit={(workUnitId) => guard.confirmThen(() => onOpenWorkUnit(workUnitId))}
          workUnitHref={workUnitHref}
        />
      </Box>
      {/* Beyond the spec: what led to the unit and what followed from it, in one place; read when opened. */}
      {tab === 'timeline' && <Timeline path={`/v1/workunits/${saved.workUnitId}/timeline`} />}
    </>
  );
}

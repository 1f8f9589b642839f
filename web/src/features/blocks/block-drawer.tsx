import { useState } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { AuditHistoryButton } from '../../components/audit-history';
import { EntityHistory, useHistorySeries, type HistoryRange } from '../../components/entity-history';
import { LogEntries, useAutoRefresh } from '../../components/log-entries';
import { ENTITY_TABS, isEntityTab, type EntityTab } from '../../components/packet-tabs';
import { Timeline, entityTimelinePath } from '../../components/timeline';
import { RuleMatchesTable } from '../../components/rule-matches-table';
import { SideDrawer } from '../../components/side-drawer';
import { pathId } from '../../lib/ids';
import { quote } from '@cfs/contracts/values/odata';
import { useTenantId } from '../../lib/use-tenant-id';
import { useQueryParam } from '../../lib/url-state';
import { BLOCKS_PATH, useBlock, useBlockHistory, useBlockLogs } from './api';
import { BlockCreateForm, BlockEditForm } from './block-form';

function BlockHistoryTab({ id }: { id: string }) {
  const [range, setRange] = useState<HistoryRange>('day');
  const [pageIndex, setPageIndex] = useState(0);
  const page = useBlockHistory(id, range, pageIndex);
  const series = useHistorySeries(`${BLOCKS_PATH}/${pathId(id)}/series`, range);
  return (
    <EntityHistory
      range={range}
      onRangeChange={(next) => {
        setRange(next);
        setPageIndex(0);
      }}
      series={series}
      page={page}
      pageIndex={pageIndex}
      onPageChange={setPageIndex}
    />
  );
}

function BlockLogsTab({ id }: { id: string }) {
  const refresh = useAutoRefresh();
  const logs = useBlockLogs(id, refresh.refetchInterval);
  return <LogEntries logs={logs} refresh={refresh} label="Block logs" />;
}

/**
 * Block details (spec 002 §2): the tabs Details, Rule Matches, History and Logs, `?blockId=&tab=`
 * in the address; a new block (`?blockId=new`) shows only Details, and after its save the address
 * names it and the other tabs appear.
 */
export default function BlockDrawer({
  id,
  onClose,
  onCreated,
}: {
  id: string | null;
  onClose: () => void;
  onCreated: (blockId: string) => void;
}) {
  const tenantId = useTenantId();
  const [tabParam, setTab] = useQueryParam('tab');
  const creating = id === 'new';
  const block = useBlock(id);
  const tab: EntityTab = creating || !isEntityTab(tabParam) ? 'details' : tabParam;
  const existing = !creating && block.data ? block.data : undefined;
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      title="Block details"
      headerActions={existing && <AuditHistoryButton entityType="block" entityId={existing.blockId} />}
    >
      {/* A block that does not exist (or is another tenant's) has no tabs to offer. */}
      {existing && (
        <Tabs
          value={tab}
          onChange={(_event, next: EntityTab) => setTab(next === 'details' ? null : next)}
          variant="scrollable"
          sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          {(Object.keys(ENTITY_TABS) as EntityTab[]).map((key) => (
            <Tab key={key} value={key} label={ENTITY_TABS[key]} />
          ))}
        </Tabs>
      )}
      {!creating && block.isPending && id !== null && <LinearProgress />}
      {!creating && block.isError && <Typography color="text.secondary">This block does not exist.</Typography>}
      {tab === 'details' && creating && (
        <BlockCreateForm
          key="new"
          tenantId={tenantId}
          onSaved={(saved) => onCreated(saved.blockId)}
          onClose={onClose}
        />
      )}
      {tab === 'details' && existing && <BlockEditForm key={existing.blockId} block={existing} onClose={onClose} />}
      {tab === 'ruleMatches' && existing && (
        <RuleMatchesTable filter={`subjectId eq ${quote(existing.blockId)}`} hideSubject label="Block rule matches" />
      )}
      {tab === 'history' && existing && <BlockHistoryTab key={existing.blockId} id={existing.blockId} />}
      {tab === 'logs' && existing && <BlockLogsTab key={existing.blockId} id={existing.blockId} />}
      {tab === 'timeline' && existing && (
        <Timeline key={existing.blockId} path={entityTimelinePath(existing.blockId)} />
      )}
    </SideDrawer>
  );
}

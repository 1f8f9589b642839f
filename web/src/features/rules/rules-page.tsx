import { useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import type { GridColDef } from '@mui/x-data-grid';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOff';
import RuleIcon from '@mui/icons-material/Rule';
import ToggleOffIcon from '@mui/icons-material/ToggleOff';
import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import { RULE_TYPES } from '@cfs/contracts/monitoring';
import { RULE_AREA_MESSAGES } from '@cfs/contracts/rule-options';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { actionsColumn, dateTimeColumn, sharedTenantColumn, titleColumn } from '../../components/grid-columns';
import { ACTIONS_FIELD } from '../../components/grid-model';
import { lazyWhenOpened } from '../../components/lazy-when-opened';
import { ResourceGrid } from '../../components/resource-grid';
import { replaceFilter } from '../../lib/list-state';
import { PageHeader } from '../../lib/page-header';
import { useTenantId } from '../../lib/use-tenant-id';
import { useDrawerParam, useListState } from '../../lib/url-state';
import { NotificationPolicyDialog } from './notification-policy-dialog';
import { RULES_PATH, useCopyRule, useDeleteRule, useToggleRule, type Rule } from './api';

// The editor and its form load when first opened.
const RuleDrawer = lazyWhenOpened(
  () => import('./rule-drawer'),
  (props) => props.id !== null,
);
const RuleMatchesDrawer = lazyWhenOpened(
  () => import('./rule-matches-drawer'),
  (props) => props.id !== null,
);
const SilencesDrawer = lazyWhenOpened(
  () => import('./silences-drawer'),
  (props) => props.id !== null,
);

const RULE_TYPE_OPTIONS = Object.entries(RULE_TYPES).map(([label, value]) => ({ value, label }));
const ENABLED_ONLY = { id: 'enabled', field: 'enabled', operator: 'is', value: true };
const ruleTypeLabel = (id: number) => RULE_TYPE_OPTIONS.find((option) => option.value === id)?.label ?? String(id);

/** Rules (spec 002 §2): enabled rules unless 'Show Disabled Rules'; `?ruleId=&tab=` opens the editor, `?ruleMatchesId=` a rule's matches. */
export default function RulesPage() {
  const tenantId = useTenantId();
  // Spec 002 §2, §7: only enabled rules unless 'Show Disabled Rules' (a filter of the list, so the
  // address keeps it and the toolbar counts it).
  const list = useListState({ defaults: { sort: [{ field: 'name', direction: 'asc' }], filters: [ENABLED_ONLY] } });
  const editor = useDrawerParam('ruleId', { clear: ['tab'] });
  const matches = useDrawerParam('ruleMatchesId');
  // Beside maintenance rules: the silences, now and ahead (`?silences=list`).
  const silences = useDrawerParam('silences');
  const [policyOpen, setPolicyOpen] = useState(false);
  const showDisabled = !list.state.filters.some((item) => item.field === 'enabled' && item.value === true);
  const setShowDisabled = (show: boolean) => list.setFilters(replaceFilter('enabled', show ? undefined : ENABLED_ONLY));
  const deleting = useItemQuestion<Rule>();
  const toggle = useToggleRule();
  const copy = useCopyRule();
  const remove = useDeleteRule();

  const columns: GridColDef<Rule>[] = [
    titleColumn<Rule>({ field: 'name', headerName: 'Name', flex: 1.4, minWidth: 120 }, editor, (row) => row.ruleId),
    {
      field: 'ruleTypeId',
      headerName: 'Type',
      type: 'singleSelect',
      valueOptions: RULE_TYPE_OPTIONS,
      width: 105,
      renderCell: ({ row }) => ruleTypeLabel(row.ruleTypeId),
    },
    sharedTenantColumn<Rule>({ flex: 0.7, minWidth: 100 }),
    {
      field: 'subscription',
      headerName: 'Subscription',
      flex: 0.8,
      minWidth: 110,
      valueGetter: (_value, row) => row.subscription?.name ?? '',
    },
    { field: 'enabled', headerName: 'Enabled', type: 'boolean', width: 105 },
    { field: 'matchLifetime', headerName: 'Lifetime', width: 90, filterable: false },
    dateTimeColumn<Rule>({ field: 'modified', headerName: 'Modified', width: 200 }),
    actionsColumn<Rule>(
      (row) => [
        { label: 'Edit', icon: <EditIcon fontSize="small" />, onClick: () => editor.open(row.ruleId) },
        {
          label: row.enabled ? 'Disable' : 'Enable',
          icon: row.enabled ? <ToggleOnIcon fontSize="small" /> : <ToggleOffIcon fontSize="small" />,
          onClick: () => void toggle.mutateAsync(row).catch(() => undefined),
        },
        {
          label: 'Copy',
          icon: <ContentCopyIcon fontSize="small" />,
          onClick: () => void copy.mutateAsync(row).catch(() => undefined),
        },
        { label: 'Rule Matches', icon: <RuleIcon fontSize="small" />, onClick: () => matches.open(row.ruleId) },
        { label: 'Delete', icon: <DeleteIcon fontSize="small" />, color: 'error', onClick: () => deleting.ask(row) },
      ],
      // Five small icon buttons (30 px each) and the cell's padding.
      { width: 170 },
    ),
  ];

  return (
    <>
      <PageHeader title="Rules" />
      <ResourceGrid
        list={list}
        path={RULES_PATH}
        expand="tenant,subscription"
        columns={columns}
        essentialColumns={['name', 'enabled', ACTIONS_FIELD]}
        columnsToggle
        getRowId={(row) => row.ruleId}
        fields={{ tenant: { path: 'tenant/name' }, subscription: { path: 'subscription/name' } }}
        searchFields={['name']}
        exportFileName="rules.csv"
        onCreate={() => editor.open('new')}
        onRowClick={(row) => editor.open(row.ruleId)}
        toolbarActions={
          <>
            <Button size="small" startIcon={<NotificationsOffIcon />} onClick={() => silences.open('list')}>
              Silences
            </Button>
            <Button size="small" startIcon={<NotificationsActiveIcon />} onClick={() => setPolicyOpen(true)}>
              Notifications
            </Button>
            <FormControlLabel
              label="Show Disabled Rules"
              control={
                <Checkbox
                  size="small"
                  checked={showDisabled}
                  onChange={(event) => setShowDisabled(event.target.checked)}
                />
              }
            />
          </>
        }
      />
      <SilencesDrawer id={silences.openId} onClose={silences.close} />
      <NotificationPolicyDialog tenantId={tenantId} open={policyOpen} onClose={() => setPolicyOpen(false)} />
      <RuleMatchesDrawer id={matches.openId} onClose={matches.close} />
      <RuleDrawer
        id={editor.openId}
        tenantId={tenantId}
        onCreated={(saved) => editor.open(saved.ruleId, { replace: true })}
        onClose={editor.close}
      />
      <ItemConfirmDialog
        question={deleting}
        title="Delete Rule"
        text={(rule) => RULE_AREA_MESSAGES.deleteConfirm(rule.name)}
        onConfirm={(rule) => remove.mutateAsync(rule)}
      />
    </>
  );
}

import { useState } from 'react';
import { Link as RouterLink } from '../../lib/router';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import ScienceIcon from '@mui/icons-material/Science';
import { useForm, useFormState, type FieldErrors, type Path } from 'react-hook-form';
import { DRAWER_WIDE_WIDTH } from '@cfs/contracts/constants';
import type { RuleValues } from '@cfs/contracts/rules';
import { AuditHistoryButton } from '../../components/audit-history';
import { FormActions } from '../../components/form-actions';
import { SideDrawer } from '../../components/side-drawer';
import { useQueryParam } from '../../lib/url-state';
import { useRule, useSaveRule, type Rule } from './api';
import { RuleActionsTab } from './rule-actions-tab';
import { RuleConditionsTab } from './rule-conditions-tab';
import { RuleDetailsTab } from './rule-details-tab';
import {
  RULE_TABS,
  formPathOf,
  ruleFormResolver,
  ruleFormValues,
  tabOf,
  type RuleFormValues,
  type RuleTab,
} from './rule-form-values';
import { RuleTestPanel } from './rule-test-panel';

export interface RuleDrawerProps {
  id: string | null;
  tenantId: string;
  onCreated: (saved: Rule) => void;
  onClose: () => void;
}

const TAB_LABELS: Record<RuleTab, string> = { details: 'Details', conditions: 'Conditions', actions: 'Actions' };

/** The rule editor (spec 002 §2): 75vw, 'Create Rule' or 'Edit: {rule name}', tabs Details, Conditions and Actions (`?tab=`). */
export default function RuleDrawer({ id, tenantId, onCreated, onClose }: RuleDrawerProps) {
  const rule = useRule(id);
  const creating = id === 'new';
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      width={DRAWER_WIDE_WIDTH}
      title={creating ? 'Create Rule' : `Edit: ${rule.data?.name ?? ''}`}
      headerActions={rule.data && <AuditHistoryButton entityType="rule" entityId={rule.data.ruleId} />}
    >
      {!creating && rule.isPending && <LinearProgress />}
      {!creating && rule.isError && <Typography color="text.secondary">This rule does not exist.</Typography>}
      {!creating && rule.data?.changeWorkUnitId != null && (
        <ChangeRequestLine workUnitId={rule.data.changeWorkUnitId} tenantId={tenantId} />
      )}
      {id !== null && (creating || rule.data) && (
        <RuleForm key={id} id={id} rule={rule.data} tenantId={tenantId} onCreated={onCreated} onClose={onClose} />
      )}
    </SideDrawer>
  );
}

/** A Maintenance rule opened by an approved planned-outage change names the change it comes from. */
function ChangeRequestLine({ workUnitId, tenantId }: { workUnitId: number; tenantId: string }) {
  return (
    <Typography variant="body2" sx={{ mb: 1 }}>
      <Link component={RouterLink} to={`/${tenantId}/workunitsv2?workUnitId=${workUnitId}`}>
        From change request #{workUnitId}
      </Link>
    </Typography>
  );
}

/** The form paths that hold a message, e.g. `conditions.0.RightOperand`. */
function errorPaths(errors: FieldErrors, prefix = ''): string[] {
  return Object.entries(errors).flatMap(([key, value]) => {
    if (!value || typeof value !== 'object' || key === 'ref') return [];
    const path = prefix ? `${prefix}.${key}` : key;
    const own = typeof (value as { message?: unknown }).message === 'string' ? [path] : [];
    return [...own, ...errorPaths(value as FieldErrors, path)];
  });
}

function RuleForm({
  id,
  rule,
  tenantId,
  onCreated,
  onClose,
}: {
  id: string;
  rule?: Rule;
  tenantId: string;
  onCreated: (saved: Rule) => void;
  onClose: () => void;
}) {
  const form = useForm<RuleFormValues, unknown, RuleValues>({
    resolver: ruleFormResolver,
    defaultValues: ruleFormValues(rule, tenantId),
  });
  const save = useSaveRule(id);
  const [tabParam, setTab] = useQueryParam('tab');
  const tab: RuleTab = (RULE_TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as RuleTab) : 'details';
  const [testing, setTesting] = useState(false);
  const { errors } = useFormState({ control: form.control });
  const tabsWithErrors = new Set(
    errorPaths(errors)
      .filter((path) => !path.startsWith('root'))
      .map(tabOf),
  );

  return (
    <>
      <Tabs value={tab} onChange={(_event, next: RuleTab) => setTab(next === 'details' ? null : next)} sx={{ mb: 1 }}>
        {RULE_TABS.map((value) => (
          <Tab
            key={value}
            value={value}
            label={TAB_LABELS[value]}
            sx={
              tabsWithErrors.has(value) ? { color: 'error.main', '&.Mui-selected': { color: 'error.main' } } : undefined
            }
          />
        ))}
      </Tabs>
      <form noValidate onSubmit={(event) => event.preventDefault()}>
        {tab === 'details' && <RuleDetailsTab form={form} />}
        {tab === 'conditions' && <RuleConditionsTab form={form} />}
        {tab === 'actions' && <RuleActionsTab form={form} />}
        <FormActions
          form={form}
          serverErrorPath={(field) => formPathOf(field) as Path<RuleFormValues>}
          leading={
            <Button startIcon={<ScienceIcon />} onClick={() => setTesting((open) => !open)} aria-expanded={testing}>
              Test
            </Button>
          }
          onSave={async (values) => {
            const saved = await save.mutateAsync(values);
            form.reset(ruleFormValues(saved, tenantId));
            if (id === 'new') onCreated(saved);
          }}
          onClose={onClose}
          loading={save.isPending}
        />
      </form>
      {testing && <RuleTestPanel form={form} />}
    </>
  );
}

import { useEffect, useRef } from 'react';
import { useFormState, type FieldErrors } from 'react-hook-form';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlined';
import { FormActions } from '../../components/form-actions';
import { FormCheckboxField, FormChipsField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { useReportUnsavedChanges } from '../../components/side-drawer';
import { useQueryParam } from '../../lib/url-state';
import { useSaveTenant, type Tenant } from './api';
import { TenantCustomFields } from './tenant-custom-fields';
import {
  TENANT_FORM_TABS,
  tenantFormSchema,
  tenantFormValues,
  tenantServerErrorPath,
  toTenantInput,
  type TenantFormTab,
  type TenantFormValues,
} from './tenant-form-values';
import { TenantIntakeSchema } from './tenant-intake-schema';
import { TenantSecrets } from './tenant-secrets';
import { TenantAgentUpdates } from './tenant-agent-updates';

/** Tabs with forms of their own, saved apart from the tenant's, shown when editing. */
type OwnTab = 'secrets' | 'agent';
type DrawerTab = TenantFormTab | OwnTab;
const TAB_LABELS: Record<DrawerTab, string> = {
  details: 'Details',
  fields: 'Additional Fields',
  intake: 'Intake Wizard Form',
  secrets: 'Secrets',
  agent: 'Agent Updates',
};
const ownTab = (tab: DrawerTab): tab is OwnTab => tab === 'secrets' || tab === 'agent';

function tabsWithErrors(errors: FieldErrors<TenantFormValues>): TenantFormTab[] {
  return (Object.keys(TENANT_FORM_TABS) as TenantFormTab[]).filter((tab) =>
    TENANT_FORM_TABS[tab].some((field) => errors[field] !== undefined),
  );
}

/**
 * The tenant's Details, Additional Fields and Intake Wizard Form tabs are one form with one Save
 * (spec 001 §2); Secrets and Agent Updates, only when editing, save on their own. The tab is `?tab=`.
 */
export function TenantForm({
  id,
  tenant,
  onClose,
  onCreated,
}: {
  id: string;
  tenant?: Tenant;
  onClose: () => void;
  onCreated: (tenantId: string) => void;
}) {
  const creating = id === 'new';
  const form = useSchemaForm(tenantFormSchema, tenantFormValues(tenant));
  const save = useSaveTenant(id);
  const [tabParam, setTabParam] = useQueryParam('tab');
  const tab: DrawerTab =
    tabParam === 'fields' || tabParam === 'intake' || ((tabParam === 'secrets' || tabParam === 'agent') && !creating)
      ? tabParam
      : 'details';
  const { errors, isDirty, isSubmitting, submitCount } = useFormState({ control: form.control });
  const erroneous = tabsWithErrors(errors);
  // The form stays in charge of the drawer's question while the Secrets tab hides its buttons.
  useReportUnsavedChanges(isDirty);

  // After a Save that failed (client rules or the server's field texts), show a tab with errors.
  const handledSubmit = useRef(0);
  useEffect(() => {
    if (isSubmitting || submitCount === handledSubmit.current) return;
    handledSubmit.current = submitCount;
    const first = erroneous[0];
    if (first && !erroneous.includes(tab as TenantFormTab)) setTabParam(first === 'details' ? null : first);
  }, [isSubmitting, submitCount, erroneous, tab, setTabParam]);

  const onSave = async (values: TenantFormValues) => {
    const saved = await save.mutateAsync(toTenantInput(values));
    if (creating) onCreated(saved.tenantId);
  };

  return (
    <>
      <Tabs
        value={tab}
        onChange={(_event, next: DrawerTab) => setTabParam(next === 'details' ? null : next)}
        variant="scrollable"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {(['details', 'fields', 'intake', 'secrets', 'agent'] as const)
          .filter((value) => !ownTab(value) || !creating)
          .map((value) => {
            const hasError = !ownTab(value) && erroneous.includes(value);
            return (
              <Tab
                key={value}
                value={value}
                label={TAB_LABELS[value]}
                icon={hasError ? <ErrorOutlineIcon fontSize="small" titleAccess="has errors" /> : undefined}
                iconPosition="end"
                sx={hasError ? { color: 'error.main', minHeight: 48 } : { minHeight: 48 }}
              />
            );
          })}
      </Tabs>
      {/* Hidden, not unmounted, on Secrets and Agent Updates: the form keeps its state and its
          question on close. They stay outside it, since their own forms may not nest in this one. */}
      <Box
        component="form"
        noValidate
        onSubmit={(event) => event.preventDefault()}
        sx={{ pt: 1, ...(ownTab(tab) ? { display: 'none' } : {}) }}
      >
        {tab === 'details' && (
          <>
            <FormTextField control={form.control} name="name" label="Name" required autoFocus={creating} />
            <FormTextField
              control={form.control}
              name="internalNotificationEmailAddress"
              label="Internal Notification Email"
              type="email"
            />
            <FormChipsField
              control={form.control}
              name="assignmentGroups"
              label="Assignment Groups"
              helperText="Press Enter or type a comma after each group."
            />
            <FormCheckboxField control={form.control} name="enabled" label="Enabled" />
            <FormTextField
              control={form.control}
              name="versionPolicyDays"
              label="Version policy (days)"
              inputMode="numeric"
              helperText="Devices must run the Latest version of each package within this many days of its release; empty for no policy."
            />
          </>
        )}
        {tab === 'fields' && <TenantCustomFields form={form} />}
        {tab === 'intake' && <TenantIntakeSchema form={form} />}
        <FormActions
          form={form}
          onSave={onSave}
          onClose={onClose}
          loading={save.isPending}
          serverErrorPath={(field) => tenantServerErrorPath(form.getValues('customFields'), field)}
        />
      </Box>
      {tab === 'secrets' && (
        <Box sx={{ pt: 2 }}>
          <TenantSecrets tenantId={id} />
        </Box>
      )}
      {tab === 'agent' && <TenantAgentUpdates tenantId={id} onClose={onClose} />}
    </>
  );
}

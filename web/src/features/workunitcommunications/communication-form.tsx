import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import {
  COMMUNICATION_STATUSES,
  COMMUNICATION_STATUS_LABELS,
  communicationFieldsSchema,
  communicationInputSchema,
  isClosedCommunicationStatus,
  type CommunicationInput,
} from '@cfs/contracts/communications';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormActions } from '../../components/form-actions';
import { FormDateTimeField } from '../../components/form-date-time-field';
import { FormCheckboxField, FormSelectField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { PeopleField } from '../../components/people-field';
import { useTenantsLookup } from '../../lib/lookups';
import { useDeleteCommunication, useSaveCommunication, type Communication } from './api';

const STATUS_OPTIONS = COMMUNICATION_STATUSES.map((status) => ({
  value: status,
  label: COMMUNICATION_STATUS_LABELS[status],
}));

/** A new communication: the route's tenant, status Investigating (spec 001 §4). */
export function blankCommunication(tenantId: string): CommunicationInput {
  return {
    title: '',
    tenantId,
    serviceManager: '',
    status: 'Investigating',
    details: null,
    customerAssistanceRequired: false,
    rootCause: null,
    eventStarted: null,
    eventEngaged: null,
    eventMitigated: null,
    eventResolved: null,
    nextUpdate: null,
    nextInternalUpdate: null,
    maximumImpact: null,
    currentImpact: null,
    impactedServices: null,
    internalBridge: null,
  };
}

/** The communication's own values of the fields its form edits. */
export function communicationValues(communication: Communication): CommunicationInput {
  const fields = communicationFieldsSchema.keyof().options;
  return Object.fromEntries(fields.map((field) => [field, communication[field]])) as CommunicationInput;
}

export interface CommunicationFormProps {
  communication?: Communication;
  tenantId: string;
  canEdit: boolean;
  canDelete: boolean;
  onClose: () => void;
  onCreated: (communication: Communication) => void;
}

const twoColumns = { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 } as const;

/**
 * The communication form (spec 001 §3 Work unit communication, §4, §5): title, tenant and service
 * manager required; with Resolved or Cancelled the next update is cleared and disabled; with
 * Resolved the root cause is required. Dates are picked in local time and sent in UTC.
 */
export function CommunicationForm({
  communication,
  tenantId,
  canEdit,
  canDelete,
  onClose,
  onCreated,
}: CommunicationFormProps) {
  const form = useSchemaForm(
    communicationInputSchema,
    communication ? communicationValues(communication) : blankCommunication(tenantId),
    { disabled: !canEdit },
  );
  const save = useSaveCommunication(communication?.workUnitCommunicationId ?? null);
  const remove = useDeleteCommunication();
  const [deleting, setDeleting] = useState(false);
  const tenants = useTenantsLookup();
  const tenantOptions = (tenants.data ?? []).map((tenant) => ({ value: tenant.tenantId, label: tenant.name }));
  const status = useWatch({ control: form.control, name: 'status' }) ?? 'Investigating';
  const closed = isClosedCommunicationStatus(status);

  return (
    <form noValidate onSubmit={(event) => event.preventDefault()} aria-label="Communication">
      <FormTextField control={form.control} name="title" label="Title" required />
      <Box sx={twoColumns}>
        <FormSelectField control={form.control} name="tenantId" label="Tenant" options={tenantOptions} required />
        <PeopleField control={form.control} name="serviceManager" label="Service Manager" directory="people" required />
        <FormSelectField
          control={form.control}
          name="status"
          label="Status"
          options={STATUS_OPTIONS}
          onValueChange={(value) => {
            // Spec 001 §4: a closed communication has no next update.
            if (typeof value === 'string' && isClosedCommunicationStatus(value))
              form.setValue('nextUpdate', null, { shouldDirty: true });
            // The root cause's message comes and goes with Resolved once the form has been checked.
            if (form.formState.isSubmitted) void form.trigger('rootCause');
          }}
        />
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <FormCheckboxField
            control={form.control}
            name="customerAssistanceRequired"
            label="Customer Assistance Required"
          />
        </Box>
      </Box>
      <FormTextField control={form.control} name="details" label="Details" multiline minRows={3} />
      <FormTextField
        control={form.control}
        name="rootCause"
        label="Root Cause"
        multiline
        minRows={2}
        required={status === 'Resolved'}
      />
      <Box sx={twoColumns}>
        <FormDateTimeField control={form.control} name="eventStarted" label="Event Started" />
        <FormDateTimeField control={form.control} name="eventEngaged" label="Event Engaged" />
        <FormDateTimeField control={form.control} name="eventMitigated" label="Event Mitigated" />
        <FormDateTimeField control={form.control} name="eventResolved" label="Event Resolved" />
        <FormDateTimeField
          control={form.control}
          name="nextUpdate"
          label="Next Update"
          disabled={closed}
          helperText={closed ? 'No next update once the communication is closed.' : undefined}
        />
        <FormDateTimeField control={form.control} name="nextInternalUpdate" label="Next Internal Update" />
      </Box>
      <FormTextField control={form.control} name="currentImpact" label="Current Impact" multiline minRows={2} />
      <FormTextField control={form.control} name="maximumImpact" label="Maximum Impact" multiline minRows={2} />
      <FormTextField control={form.control} name="impactedServices" label="Impacted Services" multiline minRows={2} />
      <FormTextField control={form.control} name="internalBridge" label="Internal Bridge" />
      {canEdit && (
        <FormActions
          form={form}
          loading={save.isPending}
          onClose={onClose}
          onSave={async (values) => {
            const saved = await save.mutateAsync(values);
            if (!communication) onCreated(saved);
          }}
          leading={
            communication && canDelete ? (
              <Button color="error" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            ) : undefined
          }
        />
      )}
      {communication && (
        <ConfirmDialog
          open={deleting}
          title="Delete communication"
          text={`Are you sure you want to delete WUCOMM #${communication.publicWorkUnitCommunicationId}?`}
          onConfirm={() =>
            remove.mutateAsync(communication.workUnitCommunicationId).then(() => {
              setDeleting(false);
              onClose();
            })
          }
          onCancel={() => setDeleting(false)}
        />
      )}
    </form>
  );
}

import { useState, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import {
  allowedNextStates,
  EFFORT_OPTIONS,
  EXPERIENCE_SCORES,
  hasStakeholder,
  SEVERITIES,
  STATE_LABELS,
  WORK_UNIT_TYPES,
} from '@cfs/contracts/values/work-units';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DrawerFooter } from '../../components/side-drawer';
import { CopyButton } from '../../components/copy-button';
import { enumOptions } from '../../components/enum-label';
import { FormActions } from '../../components/form-actions';
import { FormDateTimeField } from '../../components/form-date-time-field';
import { FormCheckboxField, FormSelectField, FormTextField } from '../../components/form-fields';
import { formatDateTime } from '../../lib/dates';
import { ApprovalSection } from './approval-section';
import { PeopleField } from '../../components/people-field';
import type { WorkUnitFormApi } from './use-work-unit-form';
import { useWorkUnitFormOptions } from './use-work-unit-form-options';
import { ASSIGNMENT_GROUP_PROMPT_TEXTS } from './work-unit-form-values';
import { usePersonLabel } from '../../lib/people';
import { FactList, FactRows } from '../../components/fact-list';

const SEVERITY_OPTIONS = enumOptions(SEVERITIES);
const EFFORT_CHOICES = EFFORT_OPTIONS.map((effort) => ({ value: effort, label: String(effort) }));
const EXPERIENCE_CHOICES = EXPERIENCE_SCORES.map((score) => ({ value: score, label: score }));
const twoColumns = { display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 } as const;

/** The Work Unit tab's form: every field of the entity a user edits (spec 001 §2, §3, §5). */
export function WorkUnitForm({ editor, onClose }: { editor: WorkUnitFormApi; onClose: () => void }) {
  const { form, base, isNew } = editor;
  const { control } = form;
  const options = useWorkUnitFormOptions(control, base);
  const isChangeRequest = options.workUnitTypeId === WORK_UNIT_TYPES.ChangeRequest;
  const [stakeHolderFullName, stakeHolderEmailAddress, stakeHolderPhoneNumber] = useWatch({
    control,
    name: ['stakeHolderFullName', 'stakeHolderEmailAddress', 'stakeHolderPhoneNumber'],
  });
  const stakeholderNamed = hasStakeholder({ stakeHolderFullName, stakeHolderEmailAddress, stakeHolderPhoneNumber });
  const stateOptions = allowedNextStates(base ? base.stateId : null).map((stateId) => ({
    value: stateId,
    label: STATE_LABELS[stateId] ?? String(stateId),
  }));

  return (
    <form noValidate onSubmit={(event) => event.preventDefault()} aria-label="Work unit">
      <FormTextField control={control} name="title" label="Title" required />
      <Box sx={twoColumns}>
        <FormSelectField
          control={control}
          name="tenantId"
          label="Tenant"
          required
          options={options.tenantOptions}
          disabled={!isNew}
          onValueChange={editor.tenantChanged}
        />
        <FormSelectField
          control={control}
          name="workUnitTypeId"
          label="Work Unit Type"
          required
          options={options.typeOptions}
          disabled={!isNew}
          onValueChange={editor.typeChanged}
        />
        <FormSelectField control={control} name="severityId" label="Severity" required options={SEVERITY_OPTIONS} />
        <FormSelectField control={control} name="stateId" label="State" required options={stateOptions} />
        <FormSelectField
          control={control}
          name="workUnitCategoryId"
          label="Category"
          options={options.categoryOptions}
          emptyLabel="None"
          onValueChange={editor.categoryChanged}
        />
        <FormSelectField
          control={control}
          name="workUnitSubcategoryId"
          label="Subcategory"
          options={options.subcategoryOptions}
          emptyLabel="None"
        />
        <FormSelectField
          control={control}
          name="assignmentGroup"
          label="Assignment Group"
          options={options.groupOptions}
          emptyLabel="None"
          onValueChange={editor.assignmentGroupChanged}
        />
        <PeopleField control={control} name="assignedTo" label="Assigned To" directory="peopleandgroups" />
        <FormSelectField control={control} name="effort" label="Effort" options={EFFORT_CHOICES} emptyLabel="None" />
        <FormSelectField
          control={control}
          name="protocolId"
          label="Protocol"
          options={options.protocolOptions}
          emptyLabel="None"
        />
        <FormTextField control={control} name="source" label="Source" />
        <FormTextField control={control} name="referenceId" label="Reference ID" />
        <FormTextField control={control} name="referenceUrl" label="Reference URL" />
      </Box>
      <FormTextField control={control} name="description" label="Description" multiline minRows={3} />
      <FormTextField
        control={control}
        name="resolution"
        label="Resolution"
        multiline
        minRows={2}
        required={isChangeRequest}
      />

      <Section title="Stakeholder">
        <Box sx={twoColumns}>
          <FormTextField
            control={control}
            name="stakeHolderFullName"
            label="Stakeholder Name"
            required={stakeholderNamed}
          />
          <FormTextField
            control={control}
            name="stakeHolderPhoneNumber"
            label="Stakeholder Phone"
            required={stakeholderNamed}
          />
          <FormTextField
            control={control}
            name="stakeHolderEmailAddress"
            label="Stakeholder Email"
            type="email"
            required={stakeholderNamed}
          />
          <FormSelectField
            control={control}
            name="stakeHolderExperienceScore"
            label="Experience Score"
            options={EXPERIENCE_CHOICES}
            emptyLabel="None"
          />
        </Box>
      </Section>

      {options.customFields.length > 0 && (
        <Section title="Additional Fields">
          <Box sx={twoColumns}>
            {options.customFields.map((field) =>
              field.options ? (
                <FormSelectField
                  key={field.valueField}
                  control={control}
                  name={field.valueField}
                  label={field.name}
                  options={field.options.map((option) => ({ value: option, label: option }))}
                  emptyLabel="None"
                />
              ) : (
                <FormTextField key={field.valueField} control={control} name={field.valueField} label={field.name} />
              ),
            )}
          </Box>
        </Section>
      )}

      {isChangeRequest && (
        <Section title="Change Request">
          <FormTextField
            control={control}
            name="implementationPlan"
            label="Implementation Plan"
            multiline
            minRows={2}
            required
          />
          <FormTextField control={control} name="rollbackPlan" label="Rollback Plan" multiline minRows={2} required />
          <FormTextField control={control} name="affectedResources" label="Affected Resources" multiline required />
          <FormTextField control={control} name="securityConsiderations" label="Security Considerations" multiline />
          <Box sx={twoColumns}>
            <FormTextField control={control} name="userImpact" label="User Impact" multiline />
            <FormTextField control={control} name="costImpact" label="Cost Impact" multiline />
            <FormTextField control={control} name="environment" label="Environment" required />
            <FormTextField control={control} name="expectedCFSAlerts" label="Expected CFS Alerts" required />
            <FormDateTimeField control={control} name="plannedStartTime" label="Planned Start Time" required />
            <FormDateTimeField control={control} name="plannedFinishTime" label="Planned Finish Time" required />
            <FormTextField control={control} name="requestedChangeWindow" label="Requested Change Window" />
            <PeopleField control={control} name="implementer" label="Implementer" directory="people" />
            <PeopleField control={control} name="approver1" label="Approver 1" directory="people" required />
            <PeopleField control={control} name="approver2" label="Approver 2" directory="people" />
          </Box>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <FormCheckboxField control={control} name="plannedOutage" label="Planned Outage" />
            <FormCheckboxField control={control} name="isApproverRequired" label="Approver Required" />
          </Box>
          {base && <ApprovalSection unit={base} onUpdated={editor.rebase} />}
        </Section>
      )}

      {base && (
        <SavedDetails
          publicWorkUnitId={base.publicWorkUnitId}
          created={base.created}
          createdBy={base.createdBy}
          modified={base.modified}
          modifiedBy={base.modifiedBy}
          resolved={base.resolved}
        />
      )}

      {/* The save row stays in sight at the foot of the panel: the form and the notes under it are long. */}
      <DrawerFooter>
        {editor.failure && (
          <Alert
            severity="error"
            sx={{ mt: 2 }}
            action={
              editor.failure.conflict ? (
                <Button color="inherit" size="small" onClick={() => void editor.discardAndRefresh()}>
                  Discard and refresh
                </Button>
              ) : undefined
            }
          >
            {editor.failure.lines.map((line) => (
              <div key={line}>{line}</div>
            ))}
          </Alert>
        )}
        <FormActions
          form={form}
          onSave={editor.save}
          onClose={onClose}
          loading={editor.saving}
          leading={<FooterMenu onMigrate={editor.migrateToChangeRequest} />}
        />
      </DrawerFooter>

      <ConfirmDialog
        open={editor.groupPrompt !== null}
        title="Assignment Group"
        text={editor.groupPrompt ? ASSIGNMENT_GROUP_PROMPT_TEXTS[editor.groupPrompt] : ''}
        onConfirm={() => editor.answerGroupPrompt(true)}
        onCancel={() => editor.answerGroupPrompt(false)}
      />
    </form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      <Divider />
      {children}
    </Box>
  );
}

/** The footer menu (spec 001 §2): type migration. */
function FooterMenu({ onMigrate }: { onMigrate: () => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <IconButton aria-label="More actions" onClick={(event) => setAnchor(event.currentTarget)}>
        <MoreVertIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onMigrate();
          }}
        >
          Change type to Change Request
        </MenuItem>
      </Menu>
    </>
  );
}

interface SavedDetailsProps {
  publicWorkUnitId: string;
  created: string;
  createdBy: string | null;
  modified: string;
  modifiedBy: string | null;
  resolved: string | null;
}

function SavedDetails({ publicWorkUnitId, created, createdBy, modified, modifiedBy, resolved }: SavedDetailsProps) {
  const creator = usePersonLabel(createdBy);
  const modifier = usePersonLabel(modifiedBy);
  const rows: [string, ReactNode][] = [
    [
      'Public ID',
      <>
        {publicWorkUnitId} <CopyButton text={publicWorkUnitId} label="Copy public ID" />
      </>,
    ],
    ['Created', `${formatDateTime(created)}${creator ? ` by ${creator}` : ''}`],
    ['Last Updated', `${formatDateTime(modified)}${modifier ? ` by ${modifier}` : ''}`],
  ];
  if (resolved) rows.push(['Resolved', formatDateTime(resolved)]);
  return (
    <FactList sx={{ mt: 3, alignItems: 'center' }}>
      <FactRows rows={rows} />
    </FactList>
  );
}

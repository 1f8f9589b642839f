import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useWatch } from 'react-hook-form';
import { ACTION_DEFINITION_TYPES, BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import {
  ACTION_DEFINITION_TYPE_LABELS,
  EDITABLE_ACTION_TYPES,
  HTTP_METHODS,
  actionDefinitionInputSchema,
} from '@cfs/contracts/action-definitions';
import { ItemFormActions } from '../../components/item-form';
import { RunPlaceholders, type RunKind } from '../../components/run-placeholders';
import { FormSelectField, FormTenantField, FormTextField, type FieldOption } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { useSaveActionDefinition, type ActionDefinition } from './api';
import { actionFormValues, BODY_HINT } from './action-definition-values';

const METHOD_OPTIONS: FieldOption[] = HTTP_METHODS.map((method) => ({ value: method, label: method }));
/** The runs an action of a type may have (spec 002 §3): protocol steps, rules, or both; the catalogue's test always. */
const RUN_KINDS: Record<number, RunKind[]> = {
  [ACTION_DEFINITION_TYPES.ProtocolAction]: ['protocol', 'test'],
  [ACTION_DEFINITION_TYPES.RuleAction]: ['rule', 'test'],
};
const runKindsOf = (type: number | null | undefined): RunKind[] =>
  (type != null ? RUN_KINDS[type] : undefined) ?? ['protocol', 'rule', 'test'];

const typeOptions = (current: number | undefined): FieldOption[] => {
  const types =
    current === undefined || EDITABLE_ACTION_TYPES.includes(current)
      ? EDITABLE_ACTION_TYPES
      : [current, ...EDITABLE_ACTION_TYPES];
  return types.map((type) => ({ value: type, label: ACTION_DEFINITION_TYPE_LABELS[type] ?? String(type) }));
};

export interface ActionDefinitionFormProps {
  id: string;
  definition: ActionDefinition | undefined;
  tenantId: string | null;
  /** A built-in action: every field shown, nothing saved (spec 002 §3). */
  readOnly: boolean;
  onSaved: (saved: ActionDefinition) => void;
  onClose: () => void;
}

/** The action definition's fields (spec 002 §3, §5): an HTTP call with placeholders for its input parameters. */
export function ActionDefinitionForm({
  id,
  definition,
  tenantId,
  readOnly,
  onSaved,
  onClose,
}: ActionDefinitionFormProps) {
  const form = useSchemaForm(actionDefinitionInputSchema, actionFormValues(definition, tenantId), {
    disabled: readOnly,
  });
  const save = useSaveActionDefinition(id);
  const { control } = form;
  const type = useWatch({ control, name: 'actionDefinitionTypeId' });
  // A built-in runs inside the portal: what it does, in place of an HTTP call it does not make.
  const builtIn = definition ? BUILT_IN_WORK[definition.actionDefinitionId] : undefined;
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()} aria-label="Action definition">
      <FormTextField control={control} name="name" label="Name" required autoFocus={!readOnly} />
      <FormTextField control={control} name="description" label="Description" multiline minRows={2} />
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        <FormSelectField
          control={control}
          name="actionDefinitionTypeId"
          label="Type"
          required
          options={typeOptions(definition?.actionDefinitionTypeId)}
        />
        {/* None: an action every tenant may use, kept by users of all tenants. */}
        <FormTenantField control={control} name="tenantId" />
      </Box>
      <FormTextField
        control={control}
        name="inputParameters"
        label="Input Parameters"
        helperText={
          builtIn ? builtIn.givenBy : 'Names separated by commas; use them as {Name} in the URL, headers and body.'
        }
      />
      {builtIn ? (
        <Typography variant="body2" sx={{ my: 2 }}>
          {builtIn.does}
        </Typography>
      ) : (
        <>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 3fr' }, columnGap: 2 }}>
            <FormSelectField control={control} name="httpMethod" label="HTTP Method" options={METHOD_OPTIONS} />
            <FormTextField
              control={control}
              name="endpointUrl"
              label="Endpoint URL"
              required
              placeholder="https://example.com/hooks/{Name}"
            />
          </Box>
          <FormTextField
            control={control}
            name="headers"
            label="Headers"
            multiline
            minRows={2}
            helperText="One per line as Name:Value."
            placeholder="Authorization:Bearer {Token}"
          />
          <FormTextField
            control={control}
            name="body"
            label="Body"
            multiline
            minRows={4}
            placeholder={BODY_HINT}
            helperText="Sent as application/json unless a Content-Type header says otherwise."
            slotProps={{ htmlInput: { sx: { fontFamily: 'monospace' } } }}
          />
        </>
      )}
      <RunPlaceholders kinds={runKindsOf(type)} />
      {readOnly ? (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
          <Button onClick={onClose}>Close</Button>
        </Box>
      ) : (
        <ItemFormActions
          form={form}
          save={save}
          valuesOf={(saved) => actionFormValues(saved, tenantId)}
          onSaved={onSaved}
          onClose={onClose}
        />
      )}
    </form>
  );
}

/** What each built-in action does, and who gives its parameters (docs/features/rules.md, Actions; docs/features/email.md). */
const BUILT_IN_WORK: Readonly<Record<string, { does: string; givenBy: string }>> = {
  [BUILT_IN_ACTIONS.sendEmail.id]: {
    does: "Sends an email about the work unit (or the rule's match) in one of the portal's templates (Template), to the recipients the template names and the To, Cc and Bcc of its ExtraParameters; IsImportant marks it important.",
    givenBy: 'Given by each protocol step or rule that runs it.',
  },
  [BUILT_IN_ACTIONS.setColor.id]: {
    does: "Colours the matched entity's block (Color: a palette name or its hex) and writes the block's log.",
    givenBy: 'Given by each rule that runs it.',
  },
  [BUILT_IN_ACTIONS.createWorkUnit.id]: {
    does: "Opens an incident, once per cause: for a rule's match, related to it; for a protocol step, a follow-up of its work unit (SeverityId, Sev2 unless given; TenantId, only the subject's own; ProtocolId).",
    givenBy: 'Given by each protocol step or rule that runs it.',
  },
};

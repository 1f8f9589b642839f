import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import type { RuleActionDefinition } from '@cfs/contracts/rule-options';
import { RULE_MESSAGES, type RuleValues } from '@cfs/contracts/rules';
import { ActionParameterField } from '../../components/action-parameter-field';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormSelectField, type FieldOption } from '../../components/form-fields';
import { useTenantId } from '../../lib/use-tenant-id';
import { useRuleActionDefinitions } from './api';
import type { RuleFormValues } from './rule-form-values';

type Form = UseFormReturn<RuleFormValues, unknown, RuleValues>;
type ActionList = 'matchActions' | 'expirationActions';

/** Actions (spec 002 §3 rule action): what runs when a match opens, and when it expires. */
export function RuleActionsTab({ form }: { form: Form }) {
  const routeTenantId = useTenantId();
  const tenantId = useWatch({ control: form.control, name: 'tenantId' });
  const all = useRuleActionDefinitions(tenantId ?? routeTenantId).data ?? [];
  // A rule of every tenant runs only the installation's actions; a tenant's rule its own too.
  const definitions = all.filter((definition) => definition.tenantId === null || definition.tenantId === tenantId);
  return (
    <>
      <ActionSection
        form={form}
        list="matchActions"
        title="Match Actions"
        addLabel="Add Match Action"
        definitions={definitions}
      />
      <ActionSection
        form={form}
        list="expirationActions"
        title="Expiration Actions"
        addLabel="Add Expiration Action"
        definitions={definitions}
      />
    </>
  );
}

function ActionSection({
  form,
  list,
  title,
  addLabel,
  definitions,
}: {
  form: Form;
  list: ActionList;
  title: string;
  addLabel: string;
  definitions: readonly RuleActionDefinition[];
}) {
  const actions = useFieldArray({ control: form.control, name: list });
  const [removing, setRemoving] = useState<number | null>(null);
  return (
    <Box component="section" aria-label={title} sx={{ mb: 3 }}>
      <Typography variant="subtitle1" sx={{ mt: 1 }}>
        {title}
      </Typography>
      {actions.fields.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          None.
        </Typography>
      )}
      <Stack spacing={1.5} sx={{ mt: 1 }}>
        {actions.fields.map((row, index) => (
          <ActionRow
            key={row.id}
            form={form}
            list={list}
            index={index}
            definitions={definitions}
            onRemove={() => setRemoving(index)}
          />
        ))}
      </Stack>
      <Button
        startIcon={<AddIcon />}
        sx={{ mt: 1 }}
        onClick={() => actions.append({ ActionDefinitionId: '', Parameters: {} })}
      >
        {addLabel}
      </Button>
      <ConfirmDialog
        open={removing !== null}
        title="Remove Action"
        text={RULE_MESSAGES.removeActionConfirm}
        onConfirm={() => {
          if (removing !== null) actions.remove(removing);
          setRemoving(null);
        }}
        onCancel={() => setRemoving(null)}
      />
    </Box>
  );
}

function ActionRow({
  form,
  list,
  index,
  definitions,
  onRemove,
}: {
  form: Form;
  list: ActionList;
  index: number;
  definitions: readonly RuleActionDefinition[];
  onRemove: () => void;
}) {
  const { control } = form;
  const chosen = useWatch({ control, name: `${list}.${index}.ActionDefinitionId` });
  const definition = definitions.find((candidate) => candidate.actionDefinitionId === chosen);
  const parameters = (definition?.inputParameters ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const options: FieldOption[] = definitions.map((candidate) => ({
    value: candidate.actionDefinitionId,
    label: candidate.name,
  }));
  if (chosen && !definition) options.push({ value: chosen, label: 'An action not offered to this rule' });
  const label = `${list === 'matchActions' ? 'Match' : 'Expiration'} Action ${index + 1}`;
  return (
    <Paper variant="outlined" role="group" aria-label={label} sx={{ p: 1.5 }}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <Box sx={{ width: 240 }}>
          <FormSelectField
            control={control}
            name={`${list}.${index}.ActionDefinitionId`}
            label="Action"
            options={options}
            size="small"
            margin="none"
            // The parameters are the chosen action's own (its input parameters); a rule's email
            // starts with the Rule template, which tells of the rule and its subject.
            onValueChange={(next) =>
              form.setValue(
                `${list}.${index}.Parameters`,
                next === BUILT_IN_ACTIONS.sendEmail.id ? { Template: 'Rule' } : {},
                { shouldDirty: true },
              )
            }
          />
        </Box>
        {parameters.map((parameter) => (
          <Box key={parameter} sx={{ width: 200 }}>
            <ActionParameterField
              control={control}
              name={`${list}.${index}.Parameters.${parameter}`}
              actionDefinitionId={chosen}
              parameter={parameter}
              size="small"
              margin="none"
            />
          </Box>
        ))}
        <IconButton size="small" color="error" aria-label={`Remove ${label}`} onClick={onRemove} sx={{ ml: 'auto' }}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Stack>
    </Paper>
  );
}

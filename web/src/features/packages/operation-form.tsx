import { useFieldArray, useWatch, type Control } from 'react-hook-form';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { FLEET_LIMITS } from '@cfs/contracts/fleet';
import { operationInputSchema } from '@cfs/contracts/packages';
import { ItemFormActions } from '../../components/item-form';
import { CheckboxGroupField, FormCheckboxField, FormSelectField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { useSaveOperation, type Operation } from './api';
import { FREQUENCY_OPTIONS, OPERATION_TYPE_OPTIONS, RESULT_TYPE_OPTIONS, SOURCE_OPTIONS } from './package-labels';

type Values = z.input<typeof operationInputSchema>;

const valuesOf = (operation: Operation | undefined): Values => ({
  name: operation?.name ?? '',
  description: operation?.description ?? '',
  parameterDefinitions: (operation?.parameterDefinitions ?? []) as Values['parameterDefinitions'],
  frequencyDefinitions: operation?.frequencyDefinitions ?? [],
  defaultInterval: operation?.defaultInterval ?? FLEET_LIMITS.defaultOperationInterval,
  operationType: operation?.operationType ?? (undefined as unknown as number),
  operationResultTypeId: operation?.operationResultTypeId ?? (undefined as unknown as number),
});

export function OperationForm({
  packageId,
  operation,
  onSaved,
  onClose,
}: {
  packageId: string;
  operation?: Operation;
  onSaved: (saved: Operation) => void;
  onClose: () => void;
}) {
  const form = useSchemaForm(operationInputSchema, valuesOf(operation));
  const save = useSaveOperation(packageId, operation?.operationId ?? null);
  const parameters = useFieldArray({ control: form.control, name: 'parameterDefinitions' });
  return (
    <>
      <FormTextField control={form.control} name="name" label="Name" required autoFocus />
      <FormTextField control={form.control} name="description" label="Description" multiline minRows={2} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FormSelectField
          control={form.control}
          name="operationType"
          label="Operation Type"
          options={OPERATION_TYPE_OPTIONS}
          required
        />
        <FormSelectField
          control={form.control}
          name="operationResultTypeId"
          label="Result Type"
          options={RESULT_TYPE_OPTIONS}
          required
        />
        <FormTextField
          control={form.control}
          name="defaultInterval"
          label="Default Interval"
          required
          placeholder="HH:mm:ss"
        />
      </Stack>
      <CheckboxGroupField
        control={form.control}
        name="frequencyDefinitions"
        label="Frequencies"
        options={FREQUENCY_OPTIONS}
        row
      />
      <Box sx={{ display: 'flex', alignItems: 'center', mt: 1 }}>
        <Typography variant="subtitle2" sx={{ flex: 1 }}>
          Parameter Definitions
        </Typography>
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() =>
            parameters.append({
              Name: '',
              Description: null,
              Required: false,
              Source: 'PortalEntry',
              DefaultValue: null,
            })
          }
        >
          Add Parameter
        </Button>
      </Box>
      {parameters.fields.length === 0 && <Typography color="text.secondary">No parameters.</Typography>}
      {parameters.fields.map((field, index) => (
        <Paper key={field.id} variant="outlined" sx={{ p: 1.5, mt: 1 }} aria-label={`Parameter ${String(index + 1)}`}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
            <FormTextField
              control={form.control}
              name={`parameterDefinitions.${index}.Name`}
              label="Parameter Name"
              required
              size="small"
            />
            <FormSelectField
              control={form.control}
              name={`parameterDefinitions.${index}.Source`}
              label="Source"
              options={SOURCE_OPTIONS}
              size="small"
            />
            <FormTextField
              control={form.control}
              name={`parameterDefinitions.${index}.DefaultValue`}
              label="Default Value"
              size="small"
            />
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <FormTextField
              control={form.control}
              name={`parameterDefinitions.${index}.Description`}
              label="Parameter Description"
              size="small"
            />
            <Box sx={{ flexShrink: 0 }}>
              <FormCheckboxField
                control={form.control}
                name={`parameterDefinitions.${index}.Required`}
                label="Required"
              />
            </Box>
            <Tooltip title="Remove parameter">
              <IconButton
                aria-label={`Remove parameter ${String(index + 1)}`}
                onClick={() => parameters.remove(index)}
                sx={{ flexShrink: 0 }}
              >
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
          <SecuredValues control={form.control} index={index} />
        </Paper>
      ))}
      <ItemFormActions form={form} save={save} valuesOf={valuesOf} onSaved={onSaved} onClose={onClose} />
    </>
  );
}

/** A SecuredValue parameter's pairs (spec 002 §3): the placeholder each secret replaces and where the agent reads it. */
function SecuredValues({
  control,
  index,
}: {
  control: Control<Values, unknown, z.output<typeof operationInputSchema>>;
  index: number;
}) {
  const source = useWatch({ control, name: `parameterDefinitions.${index}.Source` });
  const pairs = useFieldArray({
    control,
    name: `parameterDefinitions.${index}.SecuredValues` as 'parameterDefinitions.0.SecuredValues',
  });
  if (source !== 'SecuredValue') return null;
  return (
    <Box sx={{ pl: 2, borderLeft: 2, borderColor: 'divider', mt: 1 }}>
      {pairs.fields.map((pair, pairIndex) => (
        <Stack key={pair.id} direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
          <FormTextField
            control={control}
            name={`parameterDefinitions.${index}.SecuredValues.${pairIndex}.PlaceholderKeyForSecretValue`}
            label="Placeholder Key"
            required
            size="small"
          />
          <FormTextField
            control={control}
            name={`parameterDefinitions.${index}.SecuredValues.${pairIndex}.SecuredSourceKeyToGetSecretValue`}
            label="Secured Source Key"
            required
            size="small"
          />
          <IconButton aria-label="Remove secured value" onClick={() => pairs.remove(pairIndex)}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Stack>
      ))}
      <Button
        size="small"
        startIcon={<AddIcon />}
        onClick={() => pairs.append({ PlaceholderKeyForSecretValue: '', SecuredSourceKeyToGetSecretValue: '' })}
      >
        Add Secured Value
      </Button>
    </Box>
  );
}

import { useFieldArray, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import {
  DEVICE_OPERATION_MESSAGES,
  FREQUENCY_LABELS,
  deviceOperationInputSchema,
  isQueued,
  type DeviceOperationParameter,
  type ParameterDefinition,
} from '@cfs/contracts/device-operations';
import { FLEET_LIMITS, FREQUENCY_TYPES, PARAMETER_SOURCES, type ParameterSource } from '@cfs/contracts/fleet';
import { FormActions } from '../../components/form-actions';
import { FormCheckboxField, FormSelectField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import type { Device } from './api';
import {
  useQueueDeviceOperation,
  useSaveDeviceOperation,
  type DeviceOperation,
  type Operation,
} from './device-operation-api';

type FormInput = z.input<typeof deviceOperationInputSchema>;

const SOURCE_OPTIONS = PARAMETER_SOURCES.map((source) => ({ value: source, label: source }));
const SOURCE_HINTS: Record<ParameterSource, string> = {
  PortalEntry: 'The value itself',
  EnvironmentVariable: 'The name of an environment variable on the device',
  RuntimeConfig: "A key of the agent's runtime configuration",
  SecuredValue: "The name of a secret of the device's tenant",
};

const isSource = (value: string | null | undefined): value is ParameterSource =>
  (PARAMETER_SOURCES as readonly string[]).includes(value ?? '');

/** The operation's parameters in its definitions' order, each with the value saved or its default. */
function parametersFor(
  definitions: readonly ParameterDefinition[],
  saved: readonly DeviceOperationParameter[],
): DeviceOperationParameter[] {
  const byName = new Map(saved.map((parameter) => [parameter.Name, parameter]));
  const defined = definitions.map(
    (definition) =>
      byName.get(definition.Name) ?? {
        Name: definition.Name,
        Source: isSource(definition.Source) ? definition.Source : 'PortalEntry',
        Value: definition.DefaultValue ?? '',
      },
  );
  const names = new Set(definitions.map((definition) => definition.Name));
  return [...defined, ...saved.filter((parameter) => !names.has(parameter.Name))];
}

/**
 * Create/Edit Device Operation (spec 002 §2, §5): label, interval (HH:mm:ss, at least 30 s, 00:05:00
 * for a new one without the operation's own default), only the frequencies the operation allows,
 * and its parameters by their definitions and sources. An OnDemand operation shows whether it is
 * queued, with Enqueue or Dequeue.
 */
export function DeviceOperationForm({
  device,
  row,
  operation,
  onDone,
  onBack,
}: {
  device: Device;
  row: DeviceOperation | null;
  operation: Operation;
  onDone: () => void;
  onBack: () => void;
}) {
  const definitions = operation.parameterDefinitions;
  const frequencies = operation.frequencyDefinitions;
  const defaults: FormInput = row
    ? { ...row, parameters: parametersFor(definitions, row.parameters) }
    : {
        deviceId: device.deviceId,
        operationId: operation.operationId,
        label: '',
        referenceId: null,
        globalSettingId: null,
        enabled: true,
        frequencyTypeId: frequencies.includes(FREQUENCY_TYPES.Recurring)
          ? FREQUENCY_TYPES.Recurring
          : (frequencies[0] ?? FREQUENCY_TYPES.OnDemand),
        interval: operation.defaultInterval || FLEET_LIMITS.defaultOperationInterval,
        isInteractive: false,
        parameters: parametersFor(definitions, []),
      };
  const form = useSchemaForm(deviceOperationInputSchema, defaults);
  const parameters = useFieldArray({ control: form.control, name: 'parameters' });
  const save = useSaveDeviceOperation(row?.deviceOperationId ?? null);
  const queue = useQueueDeviceOperation();
  const required = new Set(
    definitions.filter((definition) => definition.Required).map((definition) => definition.Name),
  );
  const descriptions = new Map(definitions.map((definition) => [definition.Name, definition.Description ?? '']));
  const sources = useWatch({ control: form.control, name: 'parameters' }) ?? [];
  const parameterErrors = form.formState.errors.parameters;
  const parametersMessage = parameterErrors?.message ?? parameterErrors?.root?.message;
  const onDemand = row !== null && row.frequencyTypeId === FREQUENCY_TYPES.OnDemand;

  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        <Button startIcon={<ArrowBackIcon />} onClick={onBack}>
          Back to Operations
        </Button>
        <Typography variant="h6" component="h3">
          {row ? 'Edit Device Operation' : 'Create Device Operation'}: {operation.name}
        </Typography>
        {row && isQueued(row) && <Chip size="small" color="warning" label={DEVICE_OPERATION_MESSAGES.queued} />}
        {onDemand && (
          <Button
            size="small"
            variant="outlined"
            disabled={queue.isPending || !row.enabled}
            onClick={() => void queue.mutateAsync({ row, queued: !isQueued(row) }).then(onDone, () => undefined)}
          >
            {isQueued(row) ? 'Dequeue' : 'Enqueue'}
          </Button>
        )}
      </Box>
      {operation.description && (
        <Typography variant="body2" color="text.secondary">
          {operation.description}
        </Typography>
      )}
      <form noValidate onSubmit={(event) => event.preventDefault()} aria-label="Device operation">
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '2fr 1fr 1fr' }, columnGap: 2 }}>
          <FormTextField control={form.control} name="label" label="Label" required />
          <FormSelectField
            control={form.control}
            name="frequencyTypeId"
            label="Frequency"
            required
            options={frequencies.map((id) => ({ value: id, label: FREQUENCY_LABELS[id] ?? String(id) }))}
          />
          <FormTextField
            control={form.control}
            name="interval"
            label="Interval"
            required
            helperText="HH:mm:ss, at least 00:00:30"
          />
        </Box>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
          <FormTextField control={form.control} name="referenceId" label="Reference Id" />
          <FormTextField control={form.control} name="globalSettingId" label="Global Setting Id" />
        </Box>
        <Stack direction="row" spacing={2}>
          <FormCheckboxField control={form.control} name="enabled" label="Enabled" />
          <FormCheckboxField control={form.control} name="isInteractive" label="Interactive" />
        </Stack>
        <Typography variant="subtitle1" component="h4" sx={{ mt: 2 }}>
          Parameters
        </Typography>
        {parameters.fields.length === 0 && (
          <Typography color="text.secondary">This operation takes no parameters.</Typography>
        )}
        {parameters.fields.map((field, index) => {
          const source = sources[index]?.Source;
          return (
            <Box
              key={field.id}
              sx={{
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 2fr' },
                columnGap: 2,
                alignItems: 'start',
              }}
            >
              <Box sx={{ pt: 3 }}>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {field.Name}
                  {required.has(field.Name) ? ' *' : ''}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {descriptions.get(field.Name)}
                </Typography>
              </Box>
              <FormSelectField
                control={form.control}
                name={`parameters.${index}.Source`}
                label={`${field.Name} Source`}
                options={SOURCE_OPTIONS}
              />
              <FormTextField
                control={form.control}
                name={`parameters.${index}.Value`}
                label={source === 'SecuredValue' ? `${field.Name} Secret Name` : `${field.Name} Value`}
                required={required.has(field.Name)}
                helperText={isSource(source) ? SOURCE_HINTS[source] : undefined}
              />
            </Box>
          );
        })}
        {parametersMessage && <FormHelperText error>{parametersMessage}</FormHelperText>}
        <FormActions
          form={form}
          onSave={async (values) => {
            await save.mutateAsync(values);
            onDone();
          }}
          loading={save.isPending}
          saveLabel={row ? 'Save' : 'Create'}
        />
      </form>
    </Box>
  );
}

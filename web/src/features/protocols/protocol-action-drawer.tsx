import LinearProgress from '@mui/material/LinearProgress';
import { useForm, useWatch, type Path, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { WORK_UNIT_EVENT_OPTIONS, protocolActionInputSchema } from '@cfs/contracts/protocols';
import { parameterNames } from '@cfs/contracts/action-definitions';
import { ActionParameterField } from '../../components/action-parameter-field';
import { FormActions } from '../../components/form-actions';
import { RunPlaceholders } from '../../components/run-placeholders';
import { FormCheckboxField, FormSelectField, FormTextField, type FieldOption } from '../../components/form-fields';
import { schemaResolver } from '../../components/form-resolver';
import { SideDrawer } from '../../components/side-drawer';
import { useTenantId } from '../../lib/use-tenant-id';
import { useProtocolActionDefinitions, useSaveProtocolAction, type Protocol, type ProtocolAction } from './api';

type Values = z.input<typeof protocolActionInputSchema>;
type Output = z.output<typeof protocolActionInputSchema>;

/** The zod check of the form, with parameter boxes never typed in (undefined) left out first. */
const stepResolver: Resolver<Values, unknown, Output> = (values, context, options) => {
  const parameters = Object.fromEntries(
    Object.entries(values.parameters ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  return schemaResolver(protocolActionInputSchema)({ ...values, parameters }, context, options);
};

const EVENT_OPTIONS: FieldOption[] = WORK_UNIT_EVENT_OPTIONS.map((option) => ({
  value: option.id,
  label: option.name,
}));

const valuesOf = (protocolId: number, step: ProtocolAction | undefined): Partial<Values> => ({
  protocolId,
  ...(step ? { actionDefinitionId: step.actionDefinitionId, workUnitEventTypeId: step.workUnitEventTypeId } : {}),
  parameters: step?.parameters ?? {},
  sequence: step?.sequence ?? 0,
  summary: step?.summary ?? '',
  runAutomatically: step?.runAutomatically ?? true,
  repeatable: step?.repeatable ?? false,
});

/** Create/Edit Protocol Action (spec 002 §2, §4, §5): the action's own parameters only; event and action required. */
export default function ProtocolActionDrawer({
  id,
  protocol,
  step,
  onCreated,
  onClose,
}: {
  id: string | null;
  protocol: Protocol;
  step: ProtocolAction | undefined;
  onCreated: (saved: ProtocolAction) => void;
  onClose: () => void;
}) {
  const creating = id === 'new';
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      title={creating ? 'Create Protocol Action' : 'Edit Protocol Action'}
    >
      {!creating && id !== null && !step && <LinearProgress />}
      {id !== null && (creating || step) && (
        <ProtocolActionForm
          key={id}
          id={id}
          protocol={protocol}
          step={step}
          onSaved={(saved) => (creating ? onCreated(saved) : undefined)}
          onClose={onClose}
        />
      )}
    </SideDrawer>
  );
}

function ProtocolActionForm({
  id,
  protocol,
  step,
  onSaved,
  onClose,
}: {
  id: string;
  protocol: Protocol;
  step: ProtocolAction | undefined;
  onSaved: (saved: ProtocolAction) => void;
  onClose: () => void;
}) {
  const form = useForm<Values, unknown, Output>({
    resolver: stepResolver,
    defaultValues: valuesOf(protocol.protocolId, step),
  });
  const save = useSaveProtocolAction(id);
  const routeTenantId = useTenantId();
  // A shared protocol may run shared actions only; the picker asks as the tenant in the address.
  const definitions = useProtocolActionDefinitions(protocol.tenantId ?? routeTenantId);
  const offered = (definitions.data ?? []).filter(
    (definition) => protocol.tenantId !== null || definition.tenantId === null,
  );
  const actionId = useWatch({ control: form.control, name: 'actionDefinitionId' });
  const chosen = offered.find((definition) => definition.actionDefinitionId === actionId);
  const names = parameterNames(chosen?.inputParameters);
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      <FormSelectField
        control={form.control}
        name="workUnitEventTypeId"
        label="Work Unit Event"
        options={EVENT_OPTIONS}
        required
      />
      <FormSelectField
        control={form.control}
        name="actionDefinitionId"
        label="Action"
        options={offered.map((definition) => ({ value: definition.actionDefinitionId, label: definition.name }))}
        required
        helperText={chosen?.description ?? undefined}
      />
      {names.map((name) => (
        <ActionParameterField
          key={name}
          control={form.control}
          name={`parameters.${name}` as Path<Values>}
          actionDefinitionId={actionId}
          parameter={name}
        />
      ))}
      {chosen && <RunPlaceholders kinds={['protocol']} />}
      <FormTextField control={form.control} name="sequence" label="Sequence" type="number" />
      <FormTextField control={form.control} name="summary" label="Summary" />
      <FormCheckboxField control={form.control} name="runAutomatically" label="Run Automatically" />
      <FormCheckboxField control={form.control} name="repeatable" label="Repeatable" />
      <FormActions
        form={form}
        onSave={async (values) => {
          // Spec 002 §4: only the parameters the chosen action names are kept (the server filters too).
          const parameters = Object.fromEntries(
            Object.entries(values.parameters).filter(([name]) => names.includes(name)),
          );
          const saved = await save.mutateAsync({ ...values, parameters });
          form.reset(valuesOf(protocol.protocolId, saved));
          onSaved(saved);
        }}
        onClose={onClose}
        loading={save.isPending}
      />
    </form>
  );
}

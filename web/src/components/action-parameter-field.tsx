import type { FieldValues, Path } from 'react-hook-form';
import { actionParameterInput, actionParameterLabel } from '@cfs/contracts/action-parameters';
import { useTenantsLookup } from '../lib/lookups';
import { FormSelectField, FormTextField, type FieldOption, type FormTextFieldProps } from './form-fields';

/**
 * One parameter of an action as the rule and protocol action editors ask for it: the choices a
 * built-in declares for it in the contracts (a colour, a severity, a template, true/false, a
 * tenant), free text for the rest.
 *
 * @example
 *   <ActionParameterField control={form.control} name={`parameters.${name}`} actionDefinitionId={actionId} parameter={name} />
 */
export function ActionParameterField<T extends FieldValues, TOut = T>({
  actionDefinitionId,
  parameter,
  name,
  ...rest
}: Omit<FormTextFieldProps<T, TOut>, 'label'> & {
  name: Path<T>;
  actionDefinitionId: string | null | undefined;
  parameter: string;
}) {
  const input = actionParameterInput(actionDefinitionId, parameter);
  const label = actionParameterLabel(actionDefinitionId, parameter);
  const tenants = useTenantsLookup();
  if (input.kind === 'choice')
    return (
      <FormSelectField {...rest} name={name} label={label} options={input.options} emptyLabel={input.emptyLabel} />
    );
  if (input.kind === 'tenant') {
    const options: FieldOption[] = (tenants.data ?? []).map((tenant) => ({
      value: tenant.tenantId,
      label: tenant.name,
    }));
    return <FormSelectField {...rest} name={name} label={label} options={options} emptyLabel={input.emptyLabel} />;
  }
  return <FormTextField {...rest} name={name} label={label} />;
}

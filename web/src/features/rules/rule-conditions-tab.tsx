import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import LockIcon from '@mui/icons-material/Lock';
import { useFieldArray, useFormState, useWatch, type UseFormReturn } from 'react-hook-form';
import {
  CONDITION_TYPES,
  EVERY_OCCURRENCE,
  VALUELESS_OPERATORS,
  leftOperandById,
  type LeftOperandType,
} from '@cfs/contracts/monitoring';
import { hasChoices, type ConditionInputOption, type LeftOperandOption } from '@cfs/contracts/rule-options';
import type { RuleValues } from '@cfs/contracts/rules';
import { FormCheckboxField, FormSelectField, FormTextField, type FieldOption } from '../../components/form-fields';
import { TimeSpanField } from '../../components/time-span-field';
import { useTenantId } from '../../lib/use-tenant-id';
import { useConditionInputOptions, useLeftOperands, useOccurrenceOptions, useOperators } from './api';
import {
  emptyCondition,
  isTenantCondition,
  recoverable,
  recoveryDropped,
  type RuleFormValues,
} from './rule-form-values';

type Form = UseFormReturn<RuleFormValues, unknown, RuleValues>;

const JOIN_OPTIONS: FieldOption[] = [
  { value: CONDITION_TYPES.And, label: 'And' },
  { value: CONDITION_TYPES.Or, label: 'Or' },
];

/** The two condition lists of a rule: its conditions, and what recovers its matches. */
type ListName = 'conditions' | 'recoveryConditions';

/**
 * Conditions (spec 002 §3, §5): read in order, each joined to those before it by And/Or. The
 * tenant's fixed first condition is shown locked: the tenant choice adds and removes it. A rule
 * that closes on recovery has a second list below: what ends its matches (without one, its
 * conditions no longer holding).
 */
export function RuleConditionsTab({ form }: { form: Form }) {
  const { control } = form;
  const ruleTypeId = useWatch({ control, name: 'ruleTypeId' });
  const [conditions, closesOn, ownRecovery] = useWatch({ control, name: ['conditions', 'closesOn', 'ownRecovery'] });
  const recovers = recoverable({ ruleTypeId, conditions }) && closesOn === 'recovery';
  return (
    <>
      {ruleTypeId === null && (
        <Alert severity="info">Choose a Rule Type on the Details tab: it decides what conditions can read.</Alert>
      )}
      <ConditionList form={form} name="conditions" ruleTypeId={ruleTypeId} />
      {recoveryDropped({ ruleTypeId, conditions, closesOn }) && <RecoveryDroppedAlert />}
      {recovers && (
        <Paper variant="outlined" sx={{ p: 2, mt: 2 }} role="region" aria-label="Recovery">
          <Typography variant="subtitle2">Recovery</Typography>
          <FormCheckboxField control={control} name="ownRecovery" label="Own Recovery Conditions" />
          {ownRecovery ? (
            <>
              <Typography variant="body2" color="text.secondary">
                An open match closes when these hold for its subject's packet (for example, fire above 90 and recover
                below 80).
              </Typography>
              <ConditionList form={form} name="recoveryConditions" ruleTypeId={ruleTypeId} />
            </>
          ) : (
            <Typography variant="body2" color="text.secondary">
              An open match closes when a packet of its subject no longer meets the conditions above.
            </Typography>
          )}
        </Paper>
      )}
    </>
  );
}

/** What an occurrence pattern does to a rule that closes on recovery (`recoveryDropped`). */
export function RecoveryDroppedAlert() {
  return (
    <Alert severity="warning" sx={{ mt: 2 }}>
      With an occurrence pattern the rule is judged over its stored packets, and its matches close when their lifetime
      runs out. Pending For and the recovery conditions apply only to a rule judged packet by packet: saved this way,
      the rule drops them. Set every condition back to Every occurrence to keep them.
    </Alert>
  );
}

function ConditionList({ form, name, ruleTypeId }: { form: Form; name: ListName; ruleTypeId: number | null }) {
  const { control } = form;
  const list = useFieldArray({ control, name });
  const tenantId = useWatch({ control, name: 'tenantId' });
  const rows = useWatch({ control, name });
  const { errors } = useFormState({ control, name });
  const operands = useLeftOperands(ruleTypeId, tenantId).data ?? [];
  const listError = errors[name]?.root?.message ?? errors[name]?.message;
  // Recovery conditions read the matched subject: they never hold the tenant's condition.
  const fixedCount =
    name === 'conditions' && rows.length > 0 && rows[0] && isTenantCondition(rows[0]) && tenantId ? 1 : 0;
  const usable =
    name === 'conditions' ? operands : operands.filter((operand) => !isTenantCondition({ LeftOperand: operand.id }));

  return (
    <>
      <Stack spacing={1.5} sx={{ mt: 1 }}>
        {list.fields.map((row, index) => (
          <ConditionRow
            key={row.id}
            form={form}
            list={name}
            index={index}
            operands={usable}
            fixed={index < fixedCount}
            canMoveUp={index > fixedCount}
            canMoveDown={index >= fixedCount && index < list.fields.length - 1}
            onMove={(to) => list.move(index, to)}
            onRemove={() => list.remove(index)}
          />
        ))}
      </Stack>
      {listError && (
        <Typography color="error" variant="body2" sx={{ mt: 1 }} role="alert">
          {listError}
        </Typography>
      )}
      <Button startIcon={<AddIcon />} sx={{ mt: 1 }} onClick={() => list.append(emptyCondition())}>
        {name === 'conditions' ? 'Add Condition' : 'Add Recovery Condition'}
      </Button>
    </>
  );
}

interface ConditionRowProps {
  form: Form;
  list: ListName;
  index: number;
  operands: readonly LeftOperandOption[];
  fixed: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
  onMove: (to: number) => void;
  onRemove: () => void;
}

function ConditionRow({
  form,
  list,
  index,
  operands,
  fixed,
  canMoveUp,
  canMoveDown,
  onMove,
  onRemove,
}: ConditionRowProps) {
  const { control } = form;
  const routeTenantId = useTenantId();
  const tenantId = useWatch({ control, name: 'tenantId' });
  const leftOperand = useWatch({ control, name: `${list}.${index}.LeftOperand` });
  const operator = useWatch({ control, name: `${list}.${index}.Operator` });
  const operatorOptions: FieldOption[] = (useOperators().data ?? []).map((option) => ({
    value: option.id,
    label: option.label,
  }));
  // The empty choice (no pattern) already reads "Every occurrence"; the lookup's own 1/1 means the same and is not listed twice.
  const occurrenceOptions: FieldOption[] = (useOccurrenceOptions().data ?? [])
    .filter((option) => option.value !== EVERY_OCCURRENCE)
    .map((option) => ({ value: option.value, label: option.name }));
  const known = leftOperandById(leftOperand ?? -1);
  // The operand list of the rule type, plus the row's own when the type does not offer it (a type changed since).
  const operandOptions: FieldOption[] = operands.map((operand) => ({ value: operand.id, label: operand.name }));
  if (known && !operandOptions.some((option) => option.value === known.id))
    operandOptions.push({ value: known.id, label: known.name });
  const type = known?.type as LeftOperandType | undefined;
  const choices = useConditionInputOptions(routeTenantId, type, tenantId, hasChoices(type));
  const valueless = operator !== null && (VALUELESS_OPERATORS as number[]).includes(operator);
  const label = `${list === 'conditions' ? 'Condition' : 'Recovery Condition'} ${index + 1}`;

  const changeOperand = () => {
    // Another operand reads another kind of value: what was entered for the old one goes.
    form.setValue(`${list}.${index}.RightOperand`, '', { shouldDirty: true });
    form.setValue(`${list}.${index}.LeftOperandFieldName`, null, { shouldDirty: true });
  };

  return (
    <Paper
      variant="outlined"
      role="group"
      aria-label={label}
      sx={{ p: 1.5, bgcolor: fixed ? 'action.hover' : undefined }}
    >
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <Box sx={{ width: 90 }}>
          {index > 0 ? (
            <FormSelectField
              control={control}
              name={`${list}.${index}.Type`}
              label="And/Or"
              options={JOIN_OPTIONS}
              size="small"
              margin="none"
              disabled={fixed}
            />
          ) : (
            <Typography variant="body2" color="text.secondary" sx={{ pt: 1 }}>
              Where
            </Typography>
          )}
        </Box>
        <Box sx={{ width: 180 }}>
          <FormSelectField
            control={control}
            name={`${list}.${index}.LeftOperand`}
            label="Left Operand"
            options={operandOptions}
            size="small"
            margin="none"
            disabled={fixed}
            onValueChange={changeOperand}
          />
        </Box>
        {known?.field && (
          <Box sx={{ width: 140 }}>
            <FormTextField
              control={control}
              name={`${list}.${index}.LeftOperandFieldName`}
              label="Field Name"
              size="small"
              margin="none"
              disabled={fixed}
            />
          </Box>
        )}
        <Box sx={{ width: 170 }}>
          <FormSelectField
            control={control}
            name={`${list}.${index}.Operator`}
            label="Operator"
            options={operatorOptions}
            size="small"
            margin="none"
            disabled={fixed}
          />
        </Box>
        {!valueless && (
          <Box sx={{ flex: 1, minWidth: 160 }}>
            <ConditionValue
              form={form}
              list={list}
              index={index}
              type={type}
              choices={choices.data}
              onOpen={() => void choices.refetch()}
              disabled={fixed}
            />
          </Box>
        )}
        {list === 'conditions' && (
          <Box sx={{ width: 150 }}>
            <FormSelectField
              control={control}
              name={`${list}.${index}.OccurrencePattern`}
              label="Occurrence"
              options={occurrenceOptions}
              emptyLabel="Every occurrence"
              size="small"
              margin="none"
              disabled={fixed}
            />
          </Box>
        )}
        <Stack direction="row" sx={{ ml: 'auto' }}>
          {fixed ? (
            <Tooltip title="The tenant's condition comes first while the rule has a tenant.">
              <LockIcon fontSize="small" color="action" sx={{ m: 1 }} aria-label="Fixed tenant condition" />
            </Tooltip>
          ) : (
            <>
              <IconButton
                size="small"
                aria-label={`Move ${label} up`}
                disabled={!canMoveUp}
                onClick={() => onMove(index - 1)}
              >
                <ArrowUpwardIcon fontSize="small" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={`Move ${label} down`}
                disabled={!canMoveDown}
                onClick={() => onMove(index + 1)}
              >
                <ArrowDownwardIcon fontSize="small" />
              </IconButton>
              <IconButton size="small" aria-label={`Remove ${label}`} color="error" onClick={onRemove}>
                <DeleteIcon fontSize="small" />
              </IconButton>
            </>
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}

/** What an empty list of a condition's values says. */
const NO_CHOICES: Partial<Record<LeftOperandType, string>> = {
  entity: 'No entity has reported yet',
  device: 'No device yet',
};

/** Value: a choice for operands with choices, a time span for time spans, else text (spec 002 §5). */
function ConditionValue({
  form,
  list,
  index,
  type,
  choices,
  onOpen,
  disabled,
}: {
  form: Form;
  list: ListName;
  index: number;
  type: LeftOperandType | undefined;
  choices: ConditionInputOption[] | undefined;
  /** The choices are asked for again as the list opens: entities that reported since appear. */
  onOpen: () => void;
  disabled: boolean;
}) {
  const { control } = form;
  const name = `${list}.${index}.RightOperand` as const;
  const current = useWatch({ control, name });
  if (type === 'timespan')
    return <TimeSpanField control={control} name={name} label="Value" size="small" disabled={disabled} />;
  if (hasChoices(type)) {
    const options: FieldOption[] = (choices ?? []).map((choice) => ({ value: choice.value, label: choice.label }));
    // A value the list no longer offers (an entity gone quiet, past the list's bound) stays visible.
    if (current && !options.some((option) => option.value === current))
      options.unshift({ value: current, label: current });
    return (
      <FormSelectField
        control={control}
        name={name}
        label="Value"
        options={options}
        size="small"
        margin="none"
        disabled={disabled}
        onOpen={onOpen}
        noOptionsText={(type && NO_CHOICES[type]) ?? 'Nothing to choose from yet'}
      />
    );
  }
  return <FormTextField control={control} name={name} label="Value" size="small" margin="none" disabled={disabled} />;
}

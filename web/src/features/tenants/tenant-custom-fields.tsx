import { useEffect } from 'react';
import { useFieldArray, useFormState, useWatch, type UseFormReturn } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { CUSTOM_FIELD_COUNT, CUSTOM_FIELD_TYPES, customFieldColumns } from '@cfs/contracts/values/tenants';
import { FormSelectField, FormTextField, type FieldOption } from '../../components/form-fields';
import { emptyCustomFieldRow, type TenantFormValues } from './tenant-form-values';

const COLUMN_OPTIONS: FieldOption[] = customFieldColumns.map((column) => ({ value: column, label: column }));
const TYPE_OPTIONS: FieldOption[] = [
  { value: CUSTOM_FIELD_TYPES.Textbox, label: 'Textbox' },
  { value: CUSTOM_FIELD_TYPES.Dropdown, label: 'Dropdown' },
];

/**
 * Additional Fields (spec 001 §2, §5): up to 15 custom work unit fields, each stored in a chosen
 * column workUnitField1..15, shown on the work unit form as a text box or a dropdown.
 */
export function TenantCustomFields({ form }: { form: UseFormReturn<TenantFormValues> }) {
  const { control, trigger } = form;
  const rows = useFieldArray({ control, name: 'customFields' });
  const chosen = useWatch({ control, name: 'customFields' });
  const { errors, isSubmitted } = useFormState({ control, name: 'customFields' });
  const listError = errors.customFields?.message ?? errors.customFields?.root?.message;

  // Duplicates involve two rows: after a Save, a change to one row re-checks them all, so the
  // other row's "Can not have duplicate custom fields." goes away with it.
  const rowsKey = JSON.stringify(chosen);
  useEffect(() => {
    if (isSubmitted) void trigger('customFields');
  }, [rowsKey, isSubmitted, trigger]);

  const addRow = () => {
    // The first column not taken yet, so that a new row is not a duplicate from the start.
    const taken = new Set(chosen.map((row) => row.column));
    const free = customFieldColumns.find((column) => !taken.has(column)) ?? null;
    rows.append({ ...emptyCustomFieldRow, column: free });
  };

  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
        Custom fields of this tenant&apos;s work units, at most {CUSTOM_FIELD_COUNT}. Each is stored in its own column.
      </Typography>
      {listError && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {listError}
        </Alert>
      )}
      {rows.fields.length === 0 && (
        <Typography color="text.secondary" sx={{ my: 2 }}>
          No additional fields.
        </Typography>
      )}
      {rows.fields.map((row, index) => (
        <Paper
          key={row.id}
          variant="outlined"
          sx={{ px: 2, pb: 1, mb: 1.5 }}
          role="group"
          aria-label={`Additional field ${index + 1}`}
        >
          <Box
            sx={{
              display: 'grid',
              gap: 1.5,
              gridTemplateColumns: { xs: '1fr', md: '170px 1fr 140px auto' },
              alignItems: 'start',
            }}
          >
            <FormSelectField
              control={control}
              name={`customFields.${index}.column`}
              label="Column"
              options={COLUMN_OPTIONS}
              required
            />
            <FormTextField control={control} name={`customFields.${index}.Name`} label="Name" required />
            <FormSelectField
              control={control}
              name={`customFields.${index}.Type`}
              label="Type"
              options={TYPE_OPTIONS}
            />
            <Tooltip title="Remove field">
              <IconButton aria-label={`Remove field ${index + 1}`} onClick={() => rows.remove(index)} sx={{ mt: 3 }}>
                <DeleteOutlineIcon />
              </IconButton>
            </Tooltip>
          </Box>
          {chosen[index]?.Type === CUSTOM_FIELD_TYPES.Dropdown && (
            <FormTextField
              control={control}
              name={`customFields.${index}.Options`}
              label="Options"
              required
              helperText="The choices of the dropdown, separated by commas."
              sx={{ mt: 0 }}
            />
          )}
        </Paper>
      ))}
      <Button startIcon={<AddIcon />} onClick={addRow} disabled={rows.fields.length >= CUSTOM_FIELD_COUNT}>
        Add Field
      </Button>
      <Typography variant="caption" color="text.secondary" sx={{ ml: 2 }}>
        {rows.fields.length} of {CUSTOM_FIELD_COUNT}
      </Typography>
    </Box>
  );
}

import { useRef } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import FormatAlignLeftIcon from '@mui/icons-material/FormatAlignLeft';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { FormTextField } from '../../components/form-fields';
import { isJsonText, type TenantFormValues } from './tenant-form-values';

/**
 * Intake Wizard Form (spec 001 §2, §5): the JSON Schema the intake wizard builds its form from,
 * edited in place or read from an uploaded .json file. The form checks it is JSON; the server
 * also checks it is a JSON Schema and its text shows on the field.
 */
export function TenantIntakeSchema({ form }: { form: UseFormReturn<TenantFormValues> }) {
  const fileInput = useRef<HTMLInputElement>(null);

  const setSchema = (text: string) =>
    form.setValue('intakeWizardSchema', text, { shouldDirty: true, shouldTouch: true, shouldValidate: true });

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setSchema(await file.text());
  };

  const format = () => {
    const text = form.getValues('intakeWizardSchema');
    if (text.trim() && isJsonText(text)) setSchema(JSON.stringify(JSON.parse(text), null, 2));
    else void form.trigger('intakeWizardSchema');
  };

  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
        The JSON Schema from which the intake wizard builds its form. Leave it empty when the tenant takes no intake.
      </Typography>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button
          startIcon={<UploadFileIcon />}
          variant="outlined"
          size="small"
          onClick={() => fileInput.current?.click()}
        >
          Upload JSON File
        </Button>
        <Button startIcon={<FormatAlignLeftIcon />} size="small" onClick={format}>
          Format
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          aria-label="Intake wizard form file"
          onChange={(event) => {
            void upload(event.target.files?.[0]);
            // The same file chosen again must load again.
            event.target.value = '';
          }}
        />
      </Box>
      <FormTextField
        control={form.control}
        name="intakeWizardSchema"
        label="Intake Wizard Form (JSON)"
        multiline
        minRows={16}
        maxRows={32}
        slotProps={{
          htmlInput: {
            spellCheck: false,
            style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 },
          },
        }}
      />
    </Box>
  );
}

import { flushSync } from 'react-dom';
import { useQuery } from '@tanstack/react-query';
import { useController, type Control } from 'react-hook-form';
import { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import { PACKAGE_MESSAGES, packageUploadFieldsSchema } from '@cfs/contracts/packages';
import { FormActions } from '../../components/form-actions';
import { FormSelectField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { SideDrawer, useUnsavedChangesGuard } from '../../components/side-drawer';
import { listQueryOptions } from '../../lib/list-api';
import { PACKAGES_PATH, usePackage, useUploadVersion, type Package } from './api';

/** The upload's form (spec 002 §5: label required; file required), the version checked as the server does. */
const uploadFormSchema = z.object({
  packageId: z.string({ error: 'Please choose a package.' }).min(1, 'Please choose a package.'),
  version: packageUploadFieldsSchema.shape.version,
  label: packageUploadFieldsSchema.shape.label,
  file: z.instanceof(File, { error: PACKAGE_MESSAGES.fileRequired }),
});
type Values = z.input<typeof uploadFormSchema>;
type Output = z.output<typeof uploadFormSchema>;

export interface UploadVersionDrawerProps {
  /** The package to upload a version of, or 'new' to choose one in the drawer. */
  packageId: string | null;
  onClose: () => void;
}

/** Upload Package Version (spec 002 §2): Version, Label and the file. */
export default function UploadVersionDrawer({ packageId, onClose }: UploadVersionDrawerProps) {
  const fixed = packageId !== null && packageId !== 'new' ? packageId : null;
  const pkg = usePackage(fixed);
  return (
    <SideDrawer
      open={packageId !== null}
      onClose={onClose}
      title={`Upload Package Version${pkg.data ? `: ${pkg.data.name}` : ''}`}
    >
      {packageId !== null && <UploadForm key={packageId} packageId={fixed} onClose={onClose} />}
    </SideDrawer>
  );
}

function UploadForm({ packageId, onClose }: { packageId: string | null; onClose: () => void }) {
  const form = useSchemaForm(uploadFormSchema, { packageId: packageId ?? '', version: '', label: '', file: undefined });
  const upload = useUploadVersion();
  const guard = useUnsavedChangesGuard();
  // Without a package given, the user picks one (the Upload Package button).
  const packages = useQuery({
    ...listQueryOptions<Package>(
      PACKAGES_PATH,
      { pageSize: 100, sort: [{ field: 'name', direction: 'asc' }] },
      { expand: 'tenant' },
    ),
    enabled: packageId === null,
  });
  const options = (packages.data?.rows ?? []).map((row) => ({
    value: row.packageId,
    label: row.tenant ? `${row.name} (${row.tenant.name})` : row.name,
  }));
  return (
    <form noValidate onSubmit={(event) => event.preventDefault()}>
      {packageId === null && (
        <FormSelectField control={form.control} name="packageId" label="Package" options={options} required />
      )}
      <FormTextField
        control={form.control}
        name="version"
        label="Version"
        required
        autoFocus={packageId !== null}
        placeholder="1.2.3"
        helperText="SemVer 2: 1.2.3, or 1.3.0-beta.1 for a pre-release"
      />
      <FormTextField control={form.control} name="label" label="Label" required />
      <FileField control={form.control} />
      <FormActions
        form={form}
        saveLabel="Upload"
        onSave={async (values) => {
          const chosen = packages.data?.rows.find((row) => row.packageId === values.packageId);
          await upload.mutateAsync({
            packageId: values.packageId,
            tenantId: chosen?.tenantId ?? null,
            version: values.version,
            label: values.label,
            file: values.file,
          });
          // Uploaded: the form is rendered clean at once, so the drawer's guard lets it close without asking.
          flushSync(() => form.reset({ packageId: values.packageId, version: '', label: '', file: undefined }));
          guard.confirmThen(onClose);
        }}
        loading={upload.isPending}
      />
    </form>
  );
}

function FileField({ control }: { control: Control<Values, unknown, Output> }) {
  const {
    field: { name, ref, value, onBlur, onChange },
    fieldState,
  } = useController({ control, name: 'file' });
  const file = value instanceof File ? value : null;
  return (
    <Box sx={{ mt: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
        <Button
          component="label"
          variant="outlined"
          startIcon={<AttachFileIcon />}
          color={fieldState.error ? 'error' : 'primary'}
        >
          Choose File *
          <input
            hidden
            type="file"
            name={name}
            aria-label="File"
            ref={ref}
            onBlur={onBlur}
            onChange={(event) => {
              onChange(event.target.files?.[0] ?? undefined);
              onBlur();
            }}
          />
        </Button>
        <Typography color={file ? 'text.primary' : 'text.secondary'} sx={{ wordBreak: 'break-all' }}>
          {file ? `${file.name} (${file.size.toLocaleString()} bytes)` : 'No file chosen'}
        </Typography>
      </Box>
      {fieldState.error && <FormHelperText error>{fieldState.error.message}</FormHelperText>}
    </Box>
  );
}

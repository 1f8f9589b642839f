import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { INTAKE_MESSAGES } from '@cfs/contracts/intake';
import { TENANT_MESSAGES } from '@cfs/contracts/values/tenants';
import { SideDrawer } from '../../components/side-drawer';
import { ApiError } from '../../lib/api-client';
import { useTenant } from '../../lib/lookups';
import { useIntakeSchema, useSaveIntakeSchema } from './intake-api';

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The stored text, indented for reading; as stored when it is not JSON. */
function readable(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Why an upload was refused: the server's words on the schema (not JSON, not a JSON Schema), else the spec's. */
function refusal(error: unknown): string[] {
  const messages =
    error instanceof ApiError && error.status === 400 ? (error.body?.errors?.intakeWizardSchema ?? []) : [];
  return messages.length ? messages : [INTAKE_MESSAGES.problem];
}

/**
 * The schema panel (spec 001 §4): the tenant's current intake schema, and an upload that replaces
 * it. The file must be JSON (spec 001 §5), checked here before sending; the server checks it is a
 * JSON Schema. Only for users who may edit tenants.
 */
export function IntakeSchemaPanel({
  open,
  tenantId,
  tenantName,
  onClose,
}: {
  open: boolean;
  tenantId: string;
  tenantName: string;
  onClose: () => void;
}) {
  const schema = useIntakeSchema(open ? tenantId : null);
  const tenant = useTenant(open ? tenantId : null);
  const save = useSaveIntakeSchema(tenantId);
  const [errors, setErrors] = useState<string[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    const text = await file.text();
    if (!text.trim() || !isJson(text)) {
      setErrors([TENANT_MESSAGES.intakeSchemaNotJson]);
      return;
    }
    setErrors([]);
    save.mutate(
      { name: tenant.data?.name ?? tenantName, schema: text },
      { onError: (error) => setErrors(refusal(error)) },
    );
  };

  return (
    <SideDrawer open={open} onClose={onClose} title={`Intake Schema: ${tenantName}`} width="40vw">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
        <Button
          startIcon={save.isPending ? <CircularProgress size={16} /> : <UploadFileIcon />}
          variant="outlined"
          size="small"
          sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
          disabled={save.isPending || !tenant.data}
          onClick={() => fileInput.current?.click()}
        >
          Upload Schema
        </Button>
        <Typography variant="body2" color="text.secondary">
          A JSON Schema file (.json); it replaces the tenant&apos;s current schema.
        </Typography>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          aria-label="Intake schema file"
          onChange={(event) => {
            void upload(event.target.files?.[0]);
            // The same file chosen again must load again.
            event.target.value = '';
          }}
        />
      </Box>
      {errors.length > 0 && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errors.map((message) => (
            <div key={message}>{message}</div>
          ))}
        </Alert>
      )}
      {schema.isPending ? (
        <CircularProgress size={24} aria-label="Loading" />
      ) : schema.isError ? (
        <Alert severity="error">{INTAKE_MESSAGES.problem}</Alert>
      ) : !schema.data?.trim() ? (
        <Typography color="text.secondary">{INTAKE_MESSAGES.noSchema}</Typography>
      ) : (
        <Box
          component="pre"
          aria-label="Current intake schema"
          sx={{
            m: 0,
            p: 1.5,
            bgcolor: 'action.hover',
            borderRadius: 1,
            overflow: 'auto',
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            fontSize: 13,
          }}
        >
          {readable(schema.data)}
        </Box>
      )}
    </SideDrawer>
  );
}

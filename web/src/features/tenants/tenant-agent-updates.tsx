import { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { AGENT_RELEASE_PACKAGE } from '@cfs/contracts/agent';
import { AGENT_UPDATE_LIMITS, AGENT_UPDATE_MESSAGES } from '@cfs/contracts/agent-updates';
import { PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import { SCRIPTS_PERMISSION } from '@cfs/contracts/permissions';
import { usePermissions } from '../../auth/session-data';
import { DateWithAge } from '../../components/date-with-age';
import { FormActions } from '../../components/form-actions';
import { FormSelectField, FormTextField } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { useAgentUpdatePolicy, useResumeAgentRollout, useSaveAgentUpdatePolicy, type AgentUpdatePolicy } from './api';

const LATEST = 'latest';

const wholeNumber = (min: number, max: number, message: string) =>
  z.string().refine((text) => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max, message);

const agentUpdatesFormSchema = z.object({
  version: z.string(),
  rolloutPercent: wholeNumber(
    AGENT_UPDATE_LIMITS.rolloutPercentMin,
    AGENT_UPDATE_LIMITS.rolloutPercentMax,
    AGENT_UPDATE_MESSAGES.rolloutPercent,
  ),
  rollbackMinutes: wholeNumber(
    AGENT_UPDATE_LIMITS.rollbackMinutesMin,
    AGENT_UPDATE_LIMITS.rollbackMinutesMax,
    AGENT_UPDATE_MESSAGES.rollbackMinutes,
  ),
});
type AgentUpdatesFormValues = z.infer<typeof agentUpdatesFormSchema>;

const formValues = (policy: AgentUpdatePolicy): AgentUpdatesFormValues => ({
  version: policy.version ?? LATEST,
  rolloutPercent: String(policy.rolloutPercent),
  rollbackMinutes: String(policy.rollbackMinutes),
});

/**
 * The tenant's Agent Updates tab: the agent version its devices run (the Latest of the agent
 * package, or a pinned one), the share of devices that takes a new version first, the minutes an
 * updated agent has to report before it goes back, and how the rollout of its version goes — with
 * Resume when a device's failure halted it. Saved on its own, as Secrets are.
 */
export function TenantAgentUpdates({ tenantId, onClose }: { tenantId: string; onClose: () => void }) {
  const policy = useAgentUpdatePolicy(tenantId);
  if (policy.isPending) return <LinearProgress />;
  if (policy.isError) return <Typography color="text.secondary">The agent updates could not be loaded.</Typography>;
  return (
    <AgentUpdatesForm
      key={`${policy.data.modified ?? 'defaults'}`}
      tenantId={tenantId}
      policy={policy.data}
      onClose={onClose}
    />
  );
}

function AgentUpdatesForm({
  tenantId,
  policy,
  onClose,
}: {
  tenantId: string;
  policy: AgentUpdatePolicy;
  onClose: () => void;
}) {
  const form = useSchemaForm(agentUpdatesFormSchema, formValues(policy));
  const save = useSaveAgentUpdatePolicy(tenantId);
  const resume = useResumeAgentRollout(tenantId);
  const mayChoose = usePermissions().allows(SCRIPTS_PERMISSION);
  const latest = policy.versions.find((version) => version.statusId === PACKAGE_VERSION_STATUSES.Latest);
  const options = [
    { value: LATEST, label: `Latest${latest ? ` (${latest.version})` : ''}` },
    ...policy.versions.map((version) => ({ value: version.version, label: version.version })),
  ];
  const target = policy.target;

  return (
    <Box sx={{ pt: 1 }}>
      <Typography variant="body2" color="text.secondary">
        The agent is the {AGENT_RELEASE_PACKAGE} package: its devices take the version chosen here when their machine
        lets the agent update itself.
      </Typography>
      {target && <RolloutStatus target={target} onResume={() => resume.mutate()} resuming={resume.isPending} />}
      {!target && (
        <Alert severity="info" sx={{ mt: 2 }}>
          The {AGENT_RELEASE_PACKAGE} package has no version yet: the portal adds the agent it was built with when it
          starts.
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={(event) => event.preventDefault()}>
        <FormSelectField
          control={form.control}
          name="version"
          label="Agent version"
          options={options}
          disabled={!mayChoose}
          helperText="Latest follows each new version of the agent package; a version chosen here stays until changed."
        />
        <FormTextField
          control={form.control}
          name="rolloutPercent"
          label="First stage (% of devices)"
          inputMode="numeric"
          disabled={!mayChoose}
          helperText="A new version goes to this share of the devices first; the rest follow once a device has run it for the rollback minutes."
        />
        <FormTextField
          control={form.control}
          name="rollbackMinutes"
          label="Rollback after (minutes)"
          inputMode="numeric"
          disabled={!mayChoose}
          helperText="An updated agent that has not reported by then goes back to the version it ran, and the rollout halts."
        />
        {!mayChoose && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Choosing the agent its devices run needs Devices.Scripts, as running scripts does.
          </Typography>
        )}
        {mayChoose && (
          <FormActions
            form={form}
            onClose={onClose}
            loading={save.isPending}
            onSave={async (values) => {
              await save.mutateAsync({
                version: values.version === LATEST ? null : values.version,
                rolloutPercent: Number(values.rolloutPercent),
                rollbackMinutes: Number(values.rollbackMinutes),
              });
            }}
          />
        )}
      </Box>
    </Box>
  );
}

function RolloutStatus({
  target,
  onResume,
  resuming,
}: {
  target: NonNullable<AgentUpdatePolicy['target']>;
  onResume: () => void;
  resuming: boolean;
}) {
  const mayResume = usePermissions().allows(SCRIPTS_PERMISSION);
  return (
    <Box sx={{ mt: 2 }} aria-label="Rollout">
      <Typography variant="subtitle2">Rollout of {target.version}</Typography>
      <Typography variant="body2">
        {target.running} of {target.devices} devices run it · {target.updating} updating · {target.failed} went back or
        did not report
      </Typography>
      {target.firstUpdated && (
        <Typography variant="body2" color="text.secondary">
          First device updated <DateWithAge value={target.firstUpdated} />
        </Typography>
      )}
      {target.halted && (
        <Alert
          severity="warning"
          sx={{ mt: 1 }}
          action={
            mayResume ? (
              <Button color="inherit" size="small" onClick={onResume} disabled={resuming}>
                Resume
              </Button>
            ) : undefined
          }
        >
          Halted <DateWithAge value={target.halted} />: {target.haltedReason}
        </Alert>
      )}
    </Box>
  );
}

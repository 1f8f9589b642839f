import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  NOTIFICATION_GROUP_BY,
  NOTIFICATION_GROUP_WAIT_CHOICES,
  NOTIFICATION_POLICY_MESSAGES,
  NOTIFICATION_REPEAT_CHOICES,
  type NotificationGroupBy,
  type NotificationPolicy,
  type NotificationPolicyInput,
} from '@cfs/contracts/notification-policy';
import { useTenantName } from '../../lib/lookups';
import { usePermissions } from '../../auth/session-data';
import { apiGet, apiSend } from '../../lib/api-client';
import { formatSpan } from '../../lib/dates';
import { pathId } from '../../lib/ids';
import type { JsonOf } from '../../lib/json-types';
import { useApiMutation } from '../../lib/mutations';

const NEVER = 'never';
const ALONE = 'alone';

const GROUP_LABELS: Record<NotificationGroupBy, string> = {
  rule: 'By rule',
  location: 'By location',
  subscription: 'By subscription',
};

/** A choice list that also holds the value the policy has, when the API set one the list lacks. */
const withCurrent = (choices: readonly string[], current: string | null): string[] =>
  current && !choices.includes(current) ? [...choices, current] : [...choices];

/** "Every 15 minutes", "Every hour", "Every 24 hours" for a repeat span. */
const repeatLabel = (span: string): string => (span === '01:00:00' ? 'Every hour' : `Every ${formatSpan(span)}`);

/**
 * The tenant's notification policy (docs/features/rules.md "Grouped notifications" and "Repeat
 * notifications"), from the Rules page: whether matches that open together notify once per rule,
 * location or subscription, and how often an open match's Send Email and HTTP actions run again
 * until someone acknowledges it. Read by those who may view rules, changed by those who may edit them.
 */
export function NotificationPolicyDialog({
  tenantId,
  open,
  onClose,
}: {
  tenantId: string;
  open: boolean;
  onClose: () => void;
}) {
  const path = `/v1/notificationpolicy/${pathId(tenantId)}`;
  const policy = useQuery({
    queryKey: ['notificationpolicy', tenantId],
    queryFn: ({ signal }) => apiGet<JsonOf<NotificationPolicy>>(path, undefined, { signal }),
    enabled: open,
  });
  // Whose policy it is: the tenant of the page, by name.
  const tenantName = useTenantName(tenantId);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{tenantName ? `Notifications: ${tenantName}` : 'Notifications'}</DialogTitle>
      {policy.isPending && <LinearProgress />}
      {policy.data && (
        <PolicyForm key={policy.data.modified ?? 'none'} path={path} policy={policy.data} onClose={onClose} />
      )}
    </Dialog>
  );
}

function PolicyForm({
  path,
  policy,
  onClose,
}: {
  path: string;
  policy: JsonOf<NotificationPolicy>;
  onClose: () => void;
}) {
  const canEdit = usePermissions().has('Rules', 'edit');
  const [repeat, setRepeat] = useState(policy.repeatEvery ?? NEVER);
  const [groupBy, setGroupBy] = useState<string>(policy.groupBy ?? ALONE);
  const [groupWait, setGroupWait] = useState(policy.groupWait);
  const save = useApiMutation({
    mutationFn: (input: NotificationPolicyInput) => apiSend<JsonOf<NotificationPolicy>>('PUT', path, input),
    invalidate: [['notificationpolicy']],
    successMessage: NOTIFICATION_POLICY_MESSAGES.saved,
    errorMessage: (error) => error.message,
    onSuccess: onClose,
  });
  const choices = withCurrent(NOTIFICATION_REPEAT_CHOICES, policy.repeatEvery);
  const waits = withCurrent(NOTIFICATION_GROUP_WAIT_CHOICES, policy.groupWait);
  return (
    <>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          Matches that open together can send one notification between them: the first waits, and every match of its
          group that opens meanwhile is named in the same email or HTTP call.
        </Typography>
        <ChoiceField
          label="Group Notifications"
          value={groupBy}
          disabled={!canEdit}
          onChange={setGroupBy}
          choices={[
            [ALONE, 'Each match on its own'],
            ...NOTIFICATION_GROUP_BY.map((by) => [by, GROUP_LABELS[by]] as const),
          ]}
        />
        {groupBy !== ALONE && (
          <ChoiceField
            label="Wait For Others"
            value={groupWait}
            disabled={!canEdit}
            onChange={setGroupWait}
            choices={waits.map((span) => [span, formatSpan(span)] as const)}
          />
        )}
        <Typography variant="body2" color="text.secondary" gutterBottom sx={{ mt: 2 }}>
          While a match is open and nobody has acknowledged it, its Send Email and HTTP actions run again this often. A
          silence or maintenance window holds them back; acknowledging or closing the match stops them.
        </Typography>
        <ChoiceField
          label="Repeat Notifications"
          value={repeat}
          disabled={!canEdit}
          onChange={setRepeat}
          choices={[[NEVER, 'Never'], ...choices.map((span) => [span, repeatLabel(span)] as const)]}
        />
        {policy.modifiedBy && (
          <Typography variant="caption" color="text.secondary">
            Last changed by {policy.modifiedBy}.
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{canEdit ? 'Cancel' : 'Close'}</Button>
        {canEdit && (
          <Button
            variant="contained"
            disabled={save.isPending}
            onClick={() =>
              save.mutate({
                repeatEvery: repeat === NEVER ? null : repeat,
                groupBy: NOTIFICATION_GROUP_BY.find((by) => by === groupBy) ?? null,
                groupWait,
              })
            }
          >
            Save
          </Button>
        )}
      </DialogActions>
    </>
  );
}

/** One of the policy's choices: a select of [value, label] pairs. */
function ChoiceField({
  label,
  value,
  disabled,
  onChange,
  choices,
}: {
  label: string;
  value: string;
  disabled: boolean;
  onChange: (value: string) => void;
  choices: readonly (readonly [string, string])[];
}) {
  return (
    <TextField
      select
      fullWidth
      margin="normal"
      label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
    >
      {choices.map(([choice, text]) => (
        <MenuItem key={choice} value={choice}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );
}

import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import { ACTION_RESULT_LABELS } from '@cfs/contracts/action-histories';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateWithAge } from '../../components/date-with-age';
import type { ManualAction } from './automation-api';
import { ManualActionDialog } from './manual-action-dialog';
import { lastRunText, manualActionButtons, needsParameters } from './manual-actions';
import { useManualActionRunner } from './use-manual-action-runner';

/**
 * The Pending Actions tab (spec 001 §2): the manual actions of the unit's protocol for the event
 * of its current state, each with Run and Reject.
 */
export function PendingActionsTab({
  workUnitId,
  actions,
}: {
  workUnitId: number;
  actions: UseQueryResult<ManualAction[]>;
}) {
  const runner = useManualActionRunner(workUnitId);
  const asking = runner.asking;
  const withParameters = asking && !asking.reject && needsParameters(asking.action) ? asking.action : null;
  // A unit with no protocol reads nothing: none are waiting.
  const rows = actions.data ?? (actions.fetchStatus === 'idle' && !actions.isError ? [] : undefined);
  return (
    <Box>
      {actions.isLoading && <LinearProgress />}
      {actions.isError && <Alert severity="error">The pending actions could not be loaded.</Alert>}
      {rows?.length === 0 && <Typography color="text.secondary">{AUTOMATION_MESSAGES.noPendingActions}</Typography>}
      {rows?.map((action) => {
        const buttons = manualActionButtons(action, runner.busy);
        return (
          <ManualActionCard key={action.protocolActionId} action={action}>
            <CardActions sx={{ justifyContent: 'flex-end' }}>
              <Button size="small" color="error" disabled={!buttons.reject} onClick={() => runner.ask(action, true)}>
                Reject
              </Button>
              <Button
                size="small"
                variant="contained"
                disabled={!buttons.run}
                onClick={() => runner.ask(action, false)}
              >
                {action.lastRun && action.repeatable ? 'Run Again' : 'Run'}
              </Button>
            </CardActions>
          </ManualActionCard>
        );
      })}
      <ManualActionDialog
        workUnitId={workUnitId}
        action={withParameters}
        busy={runner.busy}
        onRun={(values) => (withParameters ? void runner.send(withParameters, values, false) : undefined)}
        onCancel={runner.cancel}
      />
      <ConfirmDialog
        open={asking !== null && withParameters === null}
        title={asking?.reject ? 'Reject Action' : 'Run Action'}
        text={
          asking
            ? (asking.reject ? AUTOMATION_MESSAGES.rejectConfirm : AUTOMATION_MESSAGES.triggerConfirm)(
                asking.action.actionDefinition.name,
              )
            : ''
        }
        onConfirm={() => (asking ? runner.send(asking.action, {}, asking.reject) : undefined)}
        onCancel={runner.cancel}
      />
    </Box>
  );
}

/** One manual action: summary, the action's name and description, and its last run on this unit. */
export function ManualActionCard({ action, children }: { action: ManualAction; children?: ReactNode }) {
  const last = lastRunText(action, ACTION_RESULT_LABELS);
  return (
    <Card
      variant="outlined"
      sx={{ mb: 1.5 }}
      component="article"
      aria-label={action.summary ?? action.actionDefinition.name}
    >
      <CardContent sx={{ pb: children ? 0 : undefined }}>
        <Typography variant="subtitle1" component="h3">
          {action.summary ?? action.actionDefinition.name}
        </Typography>
        <Typography variant="body2">
          <strong>{action.actionDefinition.name}</strong>
          {action.actionDefinition.description ? ` — ${action.actionDefinition.description}` : ''}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mt: 1 }}>
          {action.repeatable && <Chip size="small" label="Repeatable" variant="outlined" />}
          {last ? (
            <Typography variant="caption" color="text.secondary">
              Last run: {last}, <DateWithAge value={action.lastRun?.actionProcessed ?? ''} />
            </Typography>
          ) : (
            <Typography variant="caption" color="text.secondary">
              Not run yet
            </Typography>
          )}
        </Box>
      </CardContent>
      {children}
    </Card>
  );
}

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import { listItemQueryOptions } from '../../lib/list-api';
import { literal } from '@cfs/contracts/values/odata';
import { PROTOCOLS_PATH, useManualActions, type ProtocolOption } from './automation-api';
import { ManualActionCard } from './pending-actions-tab';

/** The Protocols tab (spec 001 §2): the unit's protocol and every manual action of it, with its last run on this unit. */
export function ProtocolsTab({
  workUnitId,
  protocolId,
  active,
}: {
  workUnitId: number;
  protocolId: number | null | undefined;
  active: boolean;
}) {
  const following = typeof protocolId === 'number';
  const protocol = useQuery({
    ...listItemQueryOptions<ProtocolOption>(PROTOCOLS_PATH, `protocolId eq ${literal(protocolId ?? 0)}`),
    enabled: active && following,
  });
  const actions = useManualActions(workUnitId, 'all', active && following);
  // A unit with no protocol has no manual actions to read.
  const rows = following ? actions.data : [];
  return (
    <Box>
      {following ? (
        <Box component="section" aria-label="Protocol" sx={{ mb: 2 }}>
          <Typography variant="h6" component="h3">
            {protocol.data?.name ?? `Protocol #${protocolId}`}
          </Typography>
          {protocol.data?.description && <Typography color="text.secondary">{protocol.data.description}</Typography>}
        </Box>
      ) : (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          This work unit follows no protocol.
        </Typography>
      )}
      {actions.isLoading && <LinearProgress />}
      {actions.isError && <Alert severity="error">The manual actions could not be loaded.</Alert>}
      {rows?.length === 0 && <Typography color="text.secondary">{AUTOMATION_MESSAGES.noManualActions}</Typography>}
      {rows?.map((action) => (
        <ManualActionCard key={action.protocolActionId} action={action} />
      ))}
    </Box>
  );
}

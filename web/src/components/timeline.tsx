import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useParams } from '../lib/router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import { TIMELINE_KIND_LABELS, type Timeline as TimelineAnswer, type TimelineEntry } from '@cfs/contracts/timeline';
import { apiGet } from '../lib/api-client';
import { pathId } from '../lib/ids';
import { DateWithAge } from './date-with-age';

const OUTCOME_COLORS = { success: 'success', failure: 'error', suppressed: 'default', pending: 'warning' } as const;

/** Where an entry's record opens in the portal, when it has a screen of its own. */
function hrefOf(entry: TimelineEntry, tenantId: string): string | undefined {
  if (entry.ref.type === 'workUnit') return `/${tenantId}/workunitsv2?workUnitId=${entry.ref.id}`;
  if (entry.ref.type === 'entity') return `/${tenantId}/packets/${entry.ref.id}`;
  return undefined;
}

function TimelineItem({
  entry,
  cause,
  tenantId,
}: {
  entry: TimelineEntry;
  cause: TimelineEntry | undefined;
  tenantId: string;
}) {
  const href = hrefOf(entry, tenantId);
  return (
    <Box
      component="li"
      data-testid="timeline-entry"
      data-kind={entry.kind}
      sx={{ position: 'relative', pl: 3, pb: 2, listStyle: 'none', borderLeft: 2, borderColor: 'divider', ml: 1 }}
    >
      <Box
        sx={{
          position: 'absolute',
          left: -7,
          top: 4,
          width: 12,
          height: 12,
          borderRadius: '50%',
          bgcolor: entry.outcome === 'failure' ? 'error.main' : 'primary.main',
        }}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Chip size="small" label={TIMELINE_KIND_LABELS[entry.kind]} variant="outlined" />
        {entry.outcome && <Chip size="small" label={entry.outcome} color={OUTCOME_COLORS[entry.outcome]} />}
        <Typography variant="caption" color="text.secondary">
          <DateWithAge value={entry.at.toISOString()} />
        </Typography>
      </Box>
      <Typography variant="body2" sx={{ mt: 0.5, fontWeight: 500 }}>
        {href ? (
          <Link component={RouterLink} to={href}>
            {entry.title}
          </Link>
        ) : (
          entry.title
        )}
      </Typography>
      {cause && (
        <Typography variant="caption" color="text.secondary">
          Caused by: {cause.title}
        </Typography>
      )}
      {entry.details.map((line, index) => (
        <Typography
          key={index}
          variant="body2"
          color="text.secondary"
          sx={{
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
            fontFamily: line.startsWith('{') ? 'monospace' : undefined,
            fontSize: line.startsWith('{') ? 12 : undefined,
          }}
        >
          {line}
        </Typography>
      ))}
    </Box>
  );
}

/**
 * One timeline of cause and effect for a work unit or an entity: the packet a rule matched, the
 * match and the conditions that held, the action runs, the work unit created, its protocol actions,
 * notes, state changes and emails, in order, each naming what caused it.
 *
 * @example
 *   <Timeline path={`/v1/workunits/${workUnitId}/timeline`} />
 *   <Timeline path={`/v1/entities/${entityId}/timeline`} />
 */
export function Timeline({ path }: { path: string }) {
  const { tenantId = '' } = useParams();
  const timeline = useQuery({
    queryKey: ['timeline', path],
    queryFn: async ({ signal }) => {
      const answer = await apiGet<TimelineAnswer>(path, undefined, { signal });
      return { ...answer, entries: answer.entries.map((entry) => ({ ...entry, at: new Date(entry.at) })) };
    },
  });
  const entries = timeline.data?.entries ?? [];
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
        <Button startIcon={<RefreshIcon />} onClick={() => void timeline.refetch()} disabled={timeline.isFetching}>
          Refresh
        </Button>
        {timeline.data?.truncated && <Typography variant="caption">Only the newest records are shown.</Typography>}
      </Box>
      {timeline.isFetching && <LinearProgress sx={{ mb: 1 }} />}
      {timeline.isError && <Alert severity="error">{timeline.error.message}</Alert>}
      {timeline.isSuccess && entries.length === 0 && (
        <Typography color="text.secondary">Nothing has happened here yet.</Typography>
      )}
      <Box component="ol" aria-label="Timeline" sx={{ p: 0, m: 0 }}>
        {entries.map((entry) => (
          <TimelineItem
            key={entry.key}
            entry={entry}
            cause={entry.causedBy ? byKey.get(entry.causedBy) : undefined}
            tenantId={tenantId}
          />
        ))}
      </Box>
    </Box>
  );
}

/** The timeline address of an entity (a block, a device). */
export const entityTimelinePath = (entityId: string) => `/v1/entities/${pathId(entityId)}/timeline`;

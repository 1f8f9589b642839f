import { useQuery } from '@tanstack/react-query';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { ServiceLevelTimer } from '@cfs/contracts/service-levels';
import type { WorkUnitClock } from '@cfs/contracts/work-units';
import { apiGet } from '../../lib/api-client';
import { formatDateTime, formatRelative, formatSeconds, formatSpan } from '../../lib/dates';
import type { JsonOf } from '../../lib/json-types';
import { useNow } from '../../lib/use-now';
import { timersKey } from './api';

/** How often the panel asks again: the clocks move by the minute, and follow a change of state within seconds. */
const REFRESH_MS = 15_000;

const KIND_LABELS = { response: 'Response', resolution: 'Resolution' } as const;

/** A span of seconds in words, to the minute ("2 hours 5 minutes", "under a minute"). */
function spanWords(seconds: number): string {
  const minutes = Math.floor(Math.abs(seconds) / 60);
  return minutes === 0 ? 'under a minute' : formatSeconds(minutes * 60);
}

type ClockColor = 'success' | 'warning' | 'error' | 'default';

/** What a clock says in one line, and its colour: left and due while it runs, paused, met or missed. */
export function clockText(timer: JsonOf<ServiceLevelTimer>): { text: string; color: ClockColor } {
  const label = KIND_LABELS[timer.kind];
  switch (timer.status) {
    case 'met':
      return { text: `${label}: met`, color: 'success' };
    case 'missed':
      return { text: `${label}: missed`, color: 'error' };
    case 'paused':
      return { text: `${label}: paused, ${spanWords(timer.remainingSeconds)} left`, color: 'default' };
    case 'running':
      return timer.remainingSeconds < 0
        ? { text: `${label}: ${spanWords(timer.remainingSeconds)} over`, color: 'error' }
        : {
            text: `${label}: ${spanWords(timer.remainingSeconds)} left`,
            color: timer.warned ? 'warning' : 'success',
          };
  }
}

/**
 * What a clock of the list says in its column, and its colour: while it runs, when it is due as
 * lists tell times ("Due in 3 h", "Due 5 min ago"); paused; met or missed once it stopped.
 */
export function listClockText(clock: JsonOf<WorkUnitClock>, now: number): { text: string; color: ClockColor } {
  if (clock.running && clock.due) {
    const over = Date.parse(clock.due) < now;
    return {
      text: `Due ${formatRelative(clock.due, now)}`,
      color: over ? 'error' : clock.warned ? 'warning' : 'default',
    };
  }
  if (clock.paused) return { text: 'Paused', color: 'default' };
  return clock.breached ? { text: 'Missed', color: 'error' } : { text: 'Met', color: 'success' };
}

/** A clock's cell in the work units grid: its text as a chip; target, due time or what is left on hover. Empty without the clock. */
export function ListClockCell({ clock }: { clock: JsonOf<WorkUnitClock> | null | undefined }) {
  const now = useNow();
  if (!clock) return null;
  const { text, color } = listClockText(clock, now);
  const target = `Target ${formatSeconds(clock.targetSeconds)}`;
  const more = clock.due
    ? `, due ${formatDateTime(clock.due)}`
    : clock.paused
      ? `, ${spanWords(clock.targetSeconds - clock.elapsedSeconds)} left`
      : '';
  return (
    <Tooltip title={`${target}${more}`}>
      <Chip size="small" variant="outlined" color={color} label={text} />
    </Tooltip>
  );
}

/**
 * The unit's service level clocks at the top of its panel (docs/features/service-levels.md): each
 * a chip with what is left (or met, missed, paused), its due time and target on hover.
 */
export function ServiceLevelClocks({ workUnitId }: { workUnitId: number }) {
  const clocks = useQuery({
    queryKey: timersKey(workUnitId),
    queryFn: ({ signal }) =>
      apiGet<JsonOf<ServiceLevelTimer>[]>(`/v1/servicelevels/timers/${workUnitId}`, undefined, { signal }),
    refetchInterval: REFRESH_MS,
    enabled: workUnitId > 0,
  });
  if (!clocks.data || clocks.data.length === 0) return null;
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ mb: 1, flexWrap: 'wrap' }}
      role="group"
      aria-label="Service levels"
    >
      {clocks.data.map((timer) => {
        const { text, color } = clockText(timer);
        const due = timer.due ? `, due ${formatDateTime(timer.due)}` : '';
        return (
          <Tooltip key={timer.kind} title={`Target ${formatSpan(timer.target)}${due}`}>
            <Chip size="small" variant="outlined" color={color} label={text} />
          </Tooltip>
        );
      })}
    </Stack>
  );
}

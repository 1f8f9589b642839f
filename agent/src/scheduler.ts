import type { AgentOperation } from '@cfs/contracts/agent';
import { FLEET_LIMITS, FREQUENCY_TYPES } from '@cfs/contracts/fleet';

/**
 * When each operation runs (spec 002 §3 Frequency): Recurring every `intervalSeconds` (at least
 * the 30-second minimum), OnDemand once per completion token while the portal has it queued,
 * OneTimeKeepAlive once, and again only after the portal changes it.
 */
export interface ScheduleState {
  /** When each operation last started, by device operation id (epoch ms). */
  lastStarted: Map<string, number>;
  /** Operations running now: never started twice at once. */
  running: Set<string>;
  /** Completion tokens already run (their completion may still be on its way to the portal). */
  tokensRun: Set<string>;
  /** OneTimeKeepAlive runs done, as `oneTimeKey(operation)`; kept on disk across restarts. */
  oneTimeDone: Set<string>;
}

export function emptyScheduleState(): ScheduleState {
  return { lastStarted: new Map(), running: new Set(), tokensRun: new Set(), oneTimeDone: new Set() };
}

export const oneTimeKey = (operation: Pick<AgentOperation, 'deviceOperationId' | 'modified'>) =>
  `${operation.deviceOperationId}@${new Date(operation.modified).toISOString()}`;

const intervalMs = (operation: AgentOperation) =>
  Math.max(operation.intervalSeconds, FLEET_LIMITS.minimumOperationIntervalSeconds) * 1000;

/** The operations to start now. */
export function dueOperations(
  operations: readonly AgentOperation[],
  state: ScheduleState,
  now: number,
): AgentOperation[] {
  return operations.filter((operation) => {
    if (state.running.has(operation.deviceOperationId)) return false;
    switch (operation.frequencyTypeId) {
      case FREQUENCY_TYPES.Recurring: {
        const last = state.lastStarted.get(operation.deviceOperationId);
        return last === undefined || now - last >= intervalMs(operation);
      }
      case FREQUENCY_TYPES.OnDemand:
        return operation.completionToken !== null && !state.tokensRun.has(operation.completionToken);
      case FREQUENCY_TYPES.OneTimeKeepAlive:
        return !state.oneTimeDone.has(oneTimeKey(operation));
      default:
        return false;
    }
  });
}

/** Milliseconds until the next Recurring operation is due (at most `ceilingMs`). */
export function msUntilNextDue(
  operations: readonly AgentOperation[],
  state: ScheduleState,
  now: number,
  ceilingMs: number,
): number {
  let soonest = ceilingMs;
  for (const operation of operations) {
    if (operation.frequencyTypeId !== FREQUENCY_TYPES.Recurring || state.running.has(operation.deviceOperationId))
      continue;
    const last = state.lastStarted.get(operation.deviceOperationId);
    const wait = last === undefined ? 0 : last + intervalMs(operation) - now;
    soonest = Math.min(soonest, Math.max(0, wait));
  }
  return soonest;
}

/** Forgets what belongs to operations the portal no longer sends (deleted, disabled, dequeued). */
export function pruneScheduleState(operations: readonly AgentOperation[], state: ScheduleState): void {
  const ids = new Set(operations.map((operation) => operation.deviceOperationId));
  for (const id of state.lastStarted.keys()) if (!ids.has(id)) state.lastStarted.delete(id);
}

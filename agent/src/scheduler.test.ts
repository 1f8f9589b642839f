import { describe, expect, it } from 'vitest';
import type { AgentOperation } from '@cfs/contracts/agent';
import { FREQUENCY_TYPES, OPERATION_TYPES } from '@cfs/contracts/fleet';
import { dueOperations, emptyScheduleState, msUntilNextDue, oneTimeKey, pruneScheduleState } from './scheduler.js';

const operation = (id: string, frequencyTypeId: number, extra: Partial<AgentOperation> = {}): AgentOperation => ({
  deviceOperationId: id,
  operationId: '00000000-0000-4000-8000-000000000001',
  operationName: 'Metric',
  label: id,
  operationTypeId: OPERATION_TYPES.Metric,
  operationResultTypeId: 2,
  frequencyTypeId,
  intervalSeconds: 60,
  completionToken: null,
  parameters: [],
  modified: new Date('2026-01-01T00:00:00Z'),
  script: null,
  ...extra,
});

const ids = (operations: AgentOperation[]) => operations.map((op) => op.deviceOperationId);

describe('dueOperations', () => {
  it('runs a recurring operation at once, then again after its interval', () => {
    const state = emptyScheduleState();
    const recurring = operation('r', FREQUENCY_TYPES.Recurring);
    expect(ids(dueOperations([recurring], state, 1_000))).toEqual(['r']);
    state.lastStarted.set('r', 1_000);
    expect(dueOperations([recurring], state, 60_999)).toEqual([]);
    expect(ids(dueOperations([recurring], state, 61_000))).toEqual(['r']);
  });

  it('never runs a recurring operation more often than every 30 seconds', () => {
    const state = emptyScheduleState();
    state.lastStarted.set('r', 0);
    const tooOften = operation('r', FREQUENCY_TYPES.Recurring, { intervalSeconds: 5 });
    expect(dueOperations([tooOften], state, 29_999)).toEqual([]);
    expect(ids(dueOperations([tooOften], state, 30_000))).toEqual(['r']);
  });

  it('runs an on-demand operation once per completion token, and not while it is not queued', () => {
    const state = emptyScheduleState();
    expect(dueOperations([operation('d', FREQUENCY_TYPES.OnDemand)], state, 0)).toEqual([]);
    const queued = operation('d', FREQUENCY_TYPES.OnDemand, { completionToken: 'token-1' });
    expect(ids(dueOperations([queued], state, 0))).toEqual(['d']);
    state.tokensRun.add('token-1');
    expect(dueOperations([queued], state, 100_000)).toEqual([]);
    expect(ids(dueOperations([{ ...queued, completionToken: 'token-2' }], state, 100_000))).toEqual(['d']);
  });

  it('runs a one-time operation once, and again only after the portal changed it', () => {
    const state = emptyScheduleState();
    const once = operation('o', FREQUENCY_TYPES.OneTimeKeepAlive);
    expect(ids(dueOperations([once], state, 0))).toEqual(['o']);
    state.oneTimeDone.add(oneTimeKey(once));
    expect(dueOperations([once], state, 1e9)).toEqual([]);
    expect(ids(dueOperations([{ ...once, modified: new Date('2026-02-01T00:00:00Z') }], state, 1e9))).toEqual(['o']);
  });

  it('does not start an operation that is still running', () => {
    const state = emptyScheduleState();
    state.running.add('r');
    expect(dueOperations([operation('r', FREQUENCY_TYPES.Recurring)], state, 0)).toEqual([]);
  });
});

describe('msUntilNextDue', () => {
  it('waits until the soonest recurring operation is due, within the ceiling', () => {
    const state = emptyScheduleState();
    state.lastStarted.set('a', 0);
    state.lastStarted.set('b', 0);
    const operations = [
      operation('a', FREQUENCY_TYPES.Recurring, { intervalSeconds: 120 }),
      operation('b', FREQUENCY_TYPES.Recurring, { intervalSeconds: 45 }),
    ];
    expect(msUntilNextDue(operations, state, 40_000, 60_000)).toBe(5_000);
    expect(msUntilNextDue(operations, state, 40_000, 1_000)).toBe(1_000);
    expect(msUntilNextDue([operation('c', FREQUENCY_TYPES.Recurring)], state, 40_000, 60_000)).toBe(0);
  });

  it('forgets operations the portal no longer sends', () => {
    const state = emptyScheduleState();
    state.lastStarted.set('gone', 0);
    state.lastStarted.set('kept', 0);
    pruneScheduleState([operation('kept', FREQUENCY_TYPES.Recurring)], state);
    expect([...state.lastStarted.keys()]).toEqual(['kept']);
  });
});

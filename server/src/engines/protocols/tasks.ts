import { sql } from 'kysely';
import { z } from 'zod';
import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { FINISHED_STATES, HISTORY_TYPES, WORK_UNIT_EVENT_TYPES } from '@cfs/contracts/work-units';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import type { ActionRun } from '../actions/run.js';
import { recordLastFailure, runAction } from '../actions/runner.js';
import { readEvents, WORK_UNIT_EVENT_CHANNEL } from '../events/cursor.js';
import { enqueueMany } from '../jobs/queue.js';
import { defineTask, type TaskDefinition } from '../jobs/task.js';
import { systemWorkUnitWriter } from '../work-units/system-writer.js';

/**
 * The protocol engine (spec 002 §3 Protocol, Protocol action; spec 001 §3): a work unit that
 * follows a protocol runs the protocol's automatic steps for each of its events, and for OnTimer
 * once per timer interval while it is open.
 *
 * - Events are read through the engine's own cursor ('protocols'); for each event of a unit whose
 *   protocol has automatic steps for the event's type, one `protocols.steps` job is enqueued in the
 *   cursor's transaction (key `event:{eventId}`).
 * - The job runs the steps one after another in `sequence` order, each through the action runner
 *   under the key `protocol:{run}:{protocolActionId}` (a retried job skips the steps already done),
 *   and writes one work unit note per step (ProtocolActionActivity or ProtocolActionFailure).
 * - A step that failed stops the steps after it for that event: a sequence is a procedure, and a
 *   later step may rely on an earlier one (an email that announces the ticket the step before
 *   opened). The failure note says which steps did not run.
 * - OnTimer: every sweep, each protocol with automatic OnTimer steps enqueues one job per open unit
 *   keyed by the unit and the interval's period (`floor(now / interval)`), so however many workers
 *   sweep, a unit's timer fires once per interval.
 */

export const PROTOCOL_EVENTS_EVERY_MS = 5000;
export const PROTOCOL_TIMER_EVERY_MS = 30_000;
/** Open units a timer sweep enqueues per statement. */
const TIMER_BATCH = 1000;

const stepsPayload = z.object({
  workUnitId: z.number().int(),
  protocolId: z.number().int(),
  tenantId: z.uuid(),
  workUnitEventTypeId: z.number().int(),
  /** The event that caused the run; null for the timer. */
  workUnitEventId: z.string().nullable(),
  /** What the steps' run keys are made of: the event id, or `timer:{protocolId}:{period}`. */
  runKey: z.string(),
});
type StepsPayload = z.infer<typeof stepsPayload>;

/** The run key of one step of one run: the action runner writes its history row once under it. */
export const stepKey = (runKey: string, protocolActionId: string): string => `protocol:${runKey}:${protocolActionId}`;

/** The timer's period that holds `now`: a unit's OnTimer steps run once per period. */
export const timerPeriod = (now: Date, intervalSeconds: number): number =>
  Math.floor(now.getTime() / (intervalSeconds * 1000));

/**
 * The work unit note of one run (spec 001 §3: ProtocolActionActivity, ProtocolActionFailure),
 * written once per action history row: the note names its run, and the check and the insert run
 * under a lock on that run, so a retried job or a second worker finds the note written.
 */
export async function noteRun(db: Db, key: string, laterSteps = 0): Promise<{ failed: boolean } | undefined> {
  return db.transaction().execute(async (trx) => {
    const all = scoped(trx, ALL_TENANTS);
    const run = await all
      .selectFrom('action_history as ah')
      .innerJoin('action_definition as ad', 'ad.action_definition_id', 'ah.action_definition_id')
      .select([
        'ah.action_history_id',
        'ah.tenant_id',
        'ah.work_unit_id',
        'ah.result_status_id',
        'ah.result_detail',
        'ad.name',
      ])
      .where('ah.job_key', '=', key)
      .executeTakeFirst();
    if (!run || run.work_unit_id === null) return undefined;
    const failed =
      run.result_status_id === ACTION_RESULT_STATUSES.Failure ||
      run.result_status_id === ACTION_RESULT_STATUSES.EnqueueFailure;
    const tail = failed && laterSteps > 0 ? `; the ${laterSteps} later step(s) of this event did not run` : '';
    const detail = `${failed ? `Protocol action "${run.name}" failed` : `Protocol action "${run.name}" ran`}: ${run.result_detail ?? 'no detail'}${tail} (run ${run.action_history_id})`;
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`note:${key}`}))`.execute(trx);
    const written = await all
      .selectFrom('work_unit_note')
      .select('work_unit_note_id')
      .where('work_unit_id', '=', run.work_unit_id)
      .where('detail', '=', detail)
      .executeTakeFirst();
    if (!written) {
      await systemWorkUnitWriter().recordNote(trx, {
        tenantId: run.tenant_id,
        workUnitId: run.work_unit_id,
        detail,
        historyType: failed ? HISTORY_TYPES.ProtocolActionFailure : HISTORY_TYPES.ProtocolActionActivity,
        createdBy: 'Protocol',
      });
    }
    return { failed };
  });
}

/** The protocol's automatic steps for an event type, in sequence order. */
function automaticSteps(db: Db | Tx, protocolId: number, eventTypeId: number) {
  return scoped(db, ALL_TENANTS)
    .selectFrom('protocol_action')
    .select(['protocol_action_id', 'action_definition_id', 'parameters'])
    .where('protocol_id', '=', protocolId)
    .where('work_unit_event_type_id', '=', eventTypeId)
    .where('run_automatically', '=', true)
    .orderBy('sequence')
    .orderBy('protocol_action_id')
    .execute();
}

/** A step's parameters as stored (JSON), as the texts runs and the contract name. */
export const textParameters = (value: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(value !== null && typeof value === 'object' ? value : {}).map(([name, text]) => [
      name,
      typeof text === 'string' ? text : JSON.stringify(text),
    ]),
  );

type Step = Awaited<ReturnType<typeof automaticSteps>>[number];

/** One step's run for the action runner. */
function stepRun(payload: StepsPayload, step: Step): ActionRun {
  return {
    actionDefinitionId: step.action_definition_id,
    tenantId: payload.tenantId,
    parameters: textParameters(step.parameters),
    origin: {
      kind: 'protocol',
      workUnitId: payload.workUnitId,
      protocolId: payload.protocolId,
      protocolActionId: step.protocol_action_id,
      workUnitEventTypeId: payload.workUnitEventTypeId,
      manual: false,
      triggeredBy: 'Protocol',
      workUnitEventId: payload.workUnitEventId,
    },
  };
}

/** The unit's steps for this run, or none when the unit left the protocol (or, for the timer, closed) since the job was enqueued. */
async function stepsToRun(db: Db, payload: StepsPayload): Promise<Step[]> {
  const unit = await scoped(db, ALL_TENANTS)
    .selectFrom('work_unit')
    .select(['protocol_id', 'state_id'])
    .where('work_unit_id', '=', payload.workUnitId)
    .executeTakeFirst();
  if (!unit || unit.protocol_id !== payload.protocolId) return [];
  if (payload.workUnitEventId === null && FINISHED_STATES.includes(unit.state_id)) return [];
  return automaticSteps(db, payload.protocolId, payload.workUnitEventTypeId);
}

/** Runs one event's (or one timer period's) automatic steps of a unit, in sequence, stopping at a failure. */
export async function runProtocolSteps(db: Db, payload: StepsPayload): Promise<void> {
  const steps = await stepsToRun(db, payload);
  for (const [index, step] of steps.entries()) {
    const key = stepKey(payload.runKey, step.protocol_action_id);
    await runAction(db, stepRun(payload, step), key);
    const outcome = await noteRun(db, key, steps.length - index - 1);
    if (outcome?.failed) return;
  }
}

/**
 * After the job's last attempt (a step kept failing for want of an answer): that step, the first
 * without a run, is recorded as a Failure and noted on the unit, like a step that failed at once.
 */
async function recordStepsGaveUp(db: Db, payload: StepsPayload, error: unknown): Promise<void> {
  const steps = await stepsToRun(db, payload);
  const keys = steps.map((step) => stepKey(payload.runKey, step.protocol_action_id));
  const done = new Set(
    keys.length
      ? (
          await scoped(db, ALL_TENANTS)
            .selectFrom('action_history')
            .select('job_key')
            .where('job_key', 'in', keys)
            .execute()
        ).map((row) => row.job_key)
      : [],
  );
  const index = keys.findIndex((key) => !done.has(key));
  const step = steps[index];
  if (!step) return;
  await recordLastFailure(db, stepRun(payload, step), keys[index]!, error);
  await noteRun(db, keys[index]!, steps.length - index - 1);
}

export const protocolStepsTask = defineTask({
  name: 'protocols.steps',
  payload: stepsPayload,
  attempts: 5,
  perform: (payload, { db }) => runProtocolSteps(db, payload),
  onFailed: (payload, error, { db }) => recordStepsGaveUp(db, payload, error),
});

/**
 * Reads the next work unit events through the protocol engine's cursor and enqueues, in the
 * cursor's transaction, one steps job per event of a unit whose protocol has automatic steps for it.
 */
export async function readProtocolEvents(db: Db, batchSize = 200): Promise<number> {
  let total = 0;
  for (let round = 0; round < 20; round += 1) {
    const read = await readEvents(db, 'protocols', batchSize, async (events, trx) => {
      const all = scoped(trx, ALL_TENANTS);
      const ids = [...new Set(events.map((event) => event.work_unit_id))];
      const units = await all
        .selectFrom('work_unit')
        .select(['work_unit_id', 'tenant_id', 'protocol_id'])
        .where('work_unit_id', 'in', ids)
        .where('protocol_id', 'is not', null)
        .execute();
      if (units.length === 0) return;
      const protocolIds = [...new Set(units.flatMap((unit) => (unit.protocol_id === null ? [] : [unit.protocol_id])))];
      const stepped = await all
        .selectFrom('protocol_action')
        .select(['protocol_id', 'work_unit_event_type_id'])
        .distinct()
        .where('protocol_id', 'in', protocolIds)
        .where('run_automatically', '=', true)
        .execute();
      const has = new Set(stepped.map((row) => `${row.protocol_id}:${row.work_unit_event_type_id}`));
      const byId = new Map(units.map((unit) => [unit.work_unit_id, unit]));
      const jobs = events.flatMap((event) => {
        const unit = byId.get(event.work_unit_id);
        if (!unit || unit.protocol_id === null || !has.has(`${unit.protocol_id}:${event.event_type_id}`)) return [];
        const eventId = String(event.work_unit_event_id);
        return [
          {
            key: `event:${eventId}`,
            payload: {
              workUnitId: unit.work_unit_id,
              protocolId: unit.protocol_id,
              tenantId: unit.tenant_id,
              workUnitEventTypeId: event.event_type_id,
              workUnitEventId: eventId,
              runKey: eventId,
            },
          },
        ];
      });
      await enqueueMany(trx, protocolStepsTask, jobs);
    });
    total += read;
    if (read < batchSize) break;
  }
  return total;
}

export const protocolEventsTask = defineTask({
  name: 'protocols.work-unit-events',
  payload: z.object({}),
  every: PROTOCOL_EVENTS_EVERY_MS,
  wakeOn: WORK_UNIT_EVENT_CHANNEL,
  perform: async (_payload, { db }) => {
    await readProtocolEvents(db);
  },
});

/**
 * The OnTimer sweep: for each protocol with automatic OnTimer steps, one steps job per open unit
 * following it and per timer period (the key), read a batch of units at a time through
 * work_unit_protocol_idx. Returns how many jobs were added.
 */
export async function enqueueProtocolTimers(db: Db, now = new Date()): Promise<number> {
  const all = scoped(db, ALL_TENANTS);
  const protocols = await all
    .selectFrom('protocol')
    .select(['protocol_id', 'timer_interval_seconds'])
    .where(
      'protocol_id',
      'in',
      all
        .selectFrom('protocol_action')
        .select('protocol_id')
        .where('work_unit_event_type_id', '=', WORK_UNIT_EVENT_TYPES.OnTimer)
        .where('run_automatically', '=', true),
    )
    .execute();
  let added = 0;
  for (const protocol of protocols) {
    const period = timerPeriod(now, protocol.timer_interval_seconds);
    const runKey = `timer:${protocol.protocol_id}:${period}`;
    let after = 0;
    for (;;) {
      const units = await all
        .selectFrom('work_unit')
        .select(['work_unit_id', 'tenant_id'])
        .where('protocol_id', '=', protocol.protocol_id)
        .where('work_unit_id', '>', after)
        .where('state_id', 'not in', [...FINISHED_STATES])
        .orderBy('work_unit_id')
        .limit(TIMER_BATCH)
        .execute();
      if (units.length === 0) break;
      added += await db.transaction().execute((trx) =>
        enqueueMany(
          trx,
          protocolStepsTask,
          units.map((unit) => ({
            key: `${runKey}:${unit.work_unit_id}`,
            payload: {
              workUnitId: unit.work_unit_id,
              protocolId: protocol.protocol_id,
              tenantId: unit.tenant_id,
              workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnTimer,
              workUnitEventId: null,
              runKey: `${runKey}:${unit.work_unit_id}`,
            },
          })),
        ),
      );
      after = units.at(-1)?.work_unit_id ?? after;
      if (units.length < TIMER_BATCH) break;
    }
  }
  return added;
}

export const protocolTimerTask = defineTask({
  name: 'protocols.timer',
  payload: z.object({}),
  every: PROTOCOL_TIMER_EVERY_MS,
  perform: async (_payload, { db }) => {
    await enqueueProtocolTimers(db);
  },
});

/**
 * The note of a manual run (Pending Actions): enqueued with the run's `actions.run` job under the
 * same key, it waits (retrying) until the run's history row is there and notes its outcome once.
 */
export const protocolRunNoteTask = defineTask({
  name: 'protocols.run-note',
  payload: z.object({ key: z.string() }),
  attempts: 10,
  backoff: (attempt) => 2000 * attempt,
  perform: async ({ key }, { db }) => {
    if (!(await noteRun(db, key))) throw new Error(`The action run ${key} has not finished yet.`);
  },
});

/** The protocol engine's tasks, run by the worker role (registered through the protocols area). */
export const PROTOCOL_ENGINE_TASKS: readonly TaskDefinition<unknown>[] = [
  protocolEventsTask,
  protocolStepsTask,
  protocolTimerTask,
  protocolRunNoteTask,
];

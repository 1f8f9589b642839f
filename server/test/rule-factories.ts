import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { BUILT_IN_ACTIONS, LEFT_OPERANDS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { tenantCondition, type ConditionInput, type RuleAction } from '@cfs/contracts/rules';
import type { Db } from '../src/db/database.js';
import { DEMO } from '../src/db/demo-ids.js';
import type { TaskDefinition } from '../src/engines/jobs/task.js';
import { forgetRules } from '../src/engines/rules/rule-cache.js';
import { createTokenAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

/**
 * Opens a test portal before the file's tests and closes it after them; `opened` is given the portal
 * and an agent token of Contoso. A test that fakes the clock has the real one back after it.
 */
export function withRulePortal(opened: (rulePortal: { portal: TestPortal; token: string }) => unknown): void {
  let portal: TestPortal | undefined;
  beforeAll(async () => {
    portal = await createTestPortal();
    await opened({ portal, token: (await createTokenAs(portal, 'admin', DEMO.contoso)).generatedToken });
  });
  afterAll(async () => {
    await portal?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/* Rules and packets of the engine's tests ------------------------------------------------------
 * Made as the rule editor and an agent would leave them, each test on a metric field of its own so
 * that no other test's packets match its rule. */

/** A minute in milliseconds, the step of the engine's tests' clocks. */
export const MINUTE = 60_000;

/** The block colour actions: a match turns its entity red, its expiration green again. */
export const red: RuleAction = { ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Red' } };
export const green: RuleAction = { ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Green' } };
/** Opens a severity 1 incident for the match. */
export const incident: RuleAction = {
  ActionDefinitionId: BUILT_IN_ACTIONS.createWorkUnit.id,
  Parameters: { SeverityId: '1' },
};

/** Metric `field` against `value` by `operator` (one of OPERATORS), as the rule editor writes it. */
export const metric = (field: string, operator: number, value: number): ConditionInput => ({
  Type: 0,
  LeftOperand: LEFT_OPERANDS.Metric.id,
  LeftOperandFieldName: field,
  Operator: operator,
  RightOperand: String(value),
  OccurrencePattern: null,
});

/** The entity is `entityId`. */
export const entityIs = (entityId: string): ConditionInput => ({
  Type: 0,
  LeftOperand: LEFT_OPERANDS.Entity.id,
  LeftOperandFieldName: null,
  Operator: OPERATORS.Equals,
  RightOperand: entityId,
  OccurrencePattern: null,
});

/** Metric `field` greater than 90: the condition the engine's tests match on. */
export const metricAbove = (field: string) => metric(field, OPERATORS.GreaterThan, 90);

/** An enabled Ingestion rule of the tenant, made in the database: its metric `field` above 90 matches. */
export async function createMetricRule(
  portal: TestPortal,
  tenantId: string,
  field: string,
  options: {
    name?: string;
    closesOn?: 'expiry' | 'recovery';
    lifetimeSeconds?: number;
    matchActions?: RuleAction[];
    expirationActions?: RuleAction[];
  } = {},
): Promise<string> {
  const { rule_id: ruleId } = await portal.db
    .insertInto('rule')
    .values({
      tenant_id: tenantId,
      name: options.name ?? `Rule ${field}`,
      rule_type_id: RULE_TYPES.Ingestion,
      match_lifetime_seconds: options.lifetimeSeconds ?? 3600,
      closes_on: options.closesOn ?? 'recovery',
      conditions: JSON.stringify([tenantCondition(tenantId), metricAbove(field)]),
      match_actions: JSON.stringify(options.matchActions ?? []),
      expiration_actions: JSON.stringify(options.expirationActions ?? []),
    })
    .returning('rule_id')
    .executeTakeFirstOrThrow();
  forgetRules(portal.db);
  return ruleId;
}

/**
 * A packet or a list of them posted to ingestion with the tenant's token, as an agent posts them;
 * anything but a 200 fails the test.
 */
export async function postPackets(portal: TestPortal, token: string, payload: unknown): Promise<void> {
  const response = await portal.app.inject({
    method: 'POST',
    url: '/v1/packets',
    payload: payload as object,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** One packet of the entity with its metric `field` at `value` (and a block name), posted with the tenant's token. */
export async function postMetric(
  portal: TestPortal,
  token: string,
  packet: { entityId: string; field: string; value: number; name?: string; timestamp?: Date },
): Promise<void> {
  await postPackets(portal, token, [
    {
      entityId: packet.entityId,
      timestamp: (packet.timestamp ?? new Date()).toISOString(),
      message: {
        Metrics: { [packet.field]: packet.value },
        ...(packet.name ? { Properties: { BlockName: packet.name } } : {}),
      },
    },
  ]);
}

/* Matches -------------------------------------------------------------------------------------- */

/** The columns of a stored match that the semantics replay and the Test tell too. */
interface StoredMatch {
  subject_id: string;
  first_match: Date;
  last_match: Date;
  match_count: number;
  expires: Date;
  completion_processed: boolean;
  outcome: string | null;
}

/** A stored match as the semantics replay one (times in milliseconds), with its entity. */
export const liveMatch = (row: StoredMatch) => ({
  entityId: row.subject_id,
  first: row.first_match.getTime(),
  last: row.last_match.getTime(),
  count: row.match_count,
  expires: row.expires.getTime(),
  closed: row.completion_processed,
  outcome: row.outcome,
});

/** A subject's stored matches (oldest first) as the Test sums them up. */
export const testedSubject = (subjectId: string, label: string | null, rows: readonly StoredMatch[]) => ({
  subjectId,
  label,
  firstMatch: rows[0]!.first_match.toISOString(),
  lastMatch: rows.at(-1)!.last_match.toISOString(),
  matchCount: rows.reduce((total, row) => total + row.match_count, 0),
  expirations: rows.flatMap((row) => (row.completion_processed ? [row.expires.toISOString()] : [])),
  outcomes: rows.flatMap((row) => (row.completion_processed ? [row.outcome] : [])),
});

/* Jobs ----------------------------------------------------------------------------------------- */

/**
 * Runs the pending jobs of `tasks` as a worker would, until none is left (each job once, marked
 * done); answers how many ran.
 */
export async function runPendingJobs(db: Db, tasks: readonly TaskDefinition[]): Promise<number> {
  let ran = 0;
  for (;;) {
    const jobs = await db
      .selectFrom('job')
      .select(['job_id', 'task', 'key', 'payload'])
      .where('state', '=', 'pending')
      .where(
        'task',
        'in',
        tasks.map((task) => task.name),
      )
      .orderBy('job_id')
      .execute();
    if (jobs.length === 0) return ran;
    for (const job of jobs) {
      const task = tasks.find((candidate) => candidate.name === job.task)!;
      await task.perform(task.payload.parse(job.payload), { db, jobId: Number(job.job_id), key: job.key, attempt: 1 });
      await db
        .updateTable('job')
        .set({ state: 'done', finished: new Date() })
        .where('job_id', '=', job.job_id)
        .execute();
      ran += 1;
    }
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_RESULT_STATUSES, BLOCK_COLORS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { tenantCondition } from '@cfs/contracts/rules';
import { prepareDemoAgent } from '../src/areas/agent/demo-agent.js';
import { DEMO } from '../src/db/demo-ids.js';
import { startJobWorker } from '../src/engines/jobs/worker.js';
import { forgetRules } from '../src/engines/rules/rule-cache.js';
import { RULE_ENGINE_TASKS } from '../src/engines/rules/tasks.js';
import { unique } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';
import { agentProgram, fromSources, repositoryRoot } from './processes.js';
import { entityIs, green, incident, metric, red } from './rule-factories.js';

/**
 * The rule engine end to end with real parts: the demo agent (a real agent process, run from its
 * source) reports its machine's CPU to a listening portal, a threshold rule matches the device's
 * heartbeat, a real job worker runs the actions (the device's block turns red, an incident is
 * opened), and once the match runs out the worker closes it and runs the expiration action once
 * (the colour goes back to green). The one shortcut: the match's expiry is moved to the past
 * instead of waiting its five minutes out. On the way, a restart asked for through the API reaches
 * the running agent at once (its configuration call is held until something changes).
 */
let portal: TestPortal;
let agent: ChildProcess | undefined;
let stopWorker: (() => Promise<void>) | undefined;
const output: string[] = [];

async function until<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; the agent said:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  portal = await createTestPortal();
  await portal.app.listen({ port: 0, host: '127.0.0.1' });
  const worker = startJobWorker({
    db: portal.db,
    tasks: RULE_ENGINE_TASKS,
    listenUrl: portal.runtime.databaseUrl,
    pollMs: 200,
  });
  stopWorker = () => worker.stop();
});
afterAll(async () => {
  agent?.kill('SIGTERM');
  await stopWorker?.();
  await portal?.close();
});

describe('the demo agent and a threshold rule', () => {
  it('turns the device block red with an incident when its CPU crosses the threshold, and green once the match expires', async () => {
    const prepared = await prepareDemoAgent(portal.db, portal.config);
    expect(prepared).toBeDefined();
    const device = await portal.db
      .selectFrom('device')
      .select(['device_id', 'tenant_id'])
      .where('tenant_id', '=', DEMO.contoso)
      .orderBy('created', 'desc')
      .executeTakeFirstOrThrow();
    // The device's heartbeat (its entity is the device), over a threshold every machine crosses: CPU at or over 0 %.
    // A name of its own: the seed's demo rules are named after the demo agent too.
    const ruleName = `Agent CPU threshold ${unique()}`;
    const rule = await portal.db
      .insertInto('rule')
      .values({
        tenant_id: DEMO.contoso,
        name: ruleName,
        rule_type_id: RULE_TYPES.Ingestion,
        match_lifetime_seconds: 300,
        conditions: JSON.stringify([
          tenantCondition(DEMO.contoso),
          entityIs(device.device_id),
          metric('CpuPercent', OPERATORS.GreaterThanOrEqual, 0),
        ]),
        match_actions: JSON.stringify([red, incident]),
        expiration_actions: JSON.stringify([green]),
      })
      .returning('rule_id')
      .executeTakeFirstOrThrow();
    forgetRules(portal.db);

    const address = portal.app.server.address() as AddressInfo;
    agent = spawn(
      process.execPath,
      fromSources(agentProgram, '--portal', `http://127.0.0.1:${address.port}`, '--data', prepared!.dataDir),
      {
        cwd: repositoryRoot,
        env: { ...process.env, CFS_AGENT_TOKEN: prepared!.token },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    agent.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    agent.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));

    const match = await until(
      () => portal.db.selectFrom('rule_match').selectAll().where('rule_id', '=', rule.rule_id).executeTakeFirst(),
      'the rule match',
    );
    expect(match).toMatchObject({ subject_id: device.device_id, completion_processed: false });
    const reason = match.reason as { conditions: { leftOperand: string; seen: string | null }[] };
    expect(reason.conditions.find((condition) => condition.leftOperand === 'Metrics.CpuPercent')?.seen).toMatch(
      /^\d+(\.\d+)?$/,
    );

    const colorOf = async () =>
      (
        await portal.db
          .selectFrom('entity_color')
          .select('color')
          .where('entity_id', '=', device.device_id)
          .executeTakeFirst()
      )?.color;
    await until(async () => ((await colorOf()) === BLOCK_COLORS.Red ? true : undefined), 'the block to turn red');
    const unit = await until(
      () =>
        portal.db
          .selectFrom('work_unit_relation')
          .innerJoin('work_unit', 'work_unit.work_unit_id', 'work_unit_relation.work_unit_id')
          .select(['work_unit.title', 'work_unit.severity_id'])
          .where('work_unit_relation.reference_id', '=', `${match.rule_match_id}:match`)
          .executeTakeFirst(),
      'the incident',
    );
    expect(unit).toMatchObject({ title: expect.stringContaining(ruleName), severity_id: 1 });

    // The agent holds a configuration call open (Prefer: wait): a restart asked for now reaches it
    // at once, not at its next 30 s poll; it acknowledges and starts afresh in the same process.
    const asked = Date.now();
    const restart = await portal.as('admin', {
      method: 'POST',
      url: `/v1/devices/${device.device_id}/restartagent?__tenant__=${device.tenant_id}`,
    });
    expect(restart.statusCode, restart.body).toBe(200);
    await until(
      async () =>
        (
          await portal.db
            .selectFrom('device')
            .select('restart_agent_flag')
            .where('device_id', '=', device.device_id)
            .executeTakeFirstOrThrow()
        ).restart_agent_flag
          ? undefined
          : true,
      'the agent to acknowledge the restart',
      10_000,
    );
    expect(Date.now() - asked).toBeLessThan(5_000);
    await until(async () => (output.join('').includes('Restarting') ? true : undefined), 'the agent to restart');

    // The agent stops (its CPU would match again), and five minutes on the match runs out: the
    // worker's expiry closes it and runs its expiration action, once.
    const running = agent;
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill('SIGTERM');
    });
    agent = undefined;
    await sql`UPDATE rule_match SET expires = now() - interval '1 second' WHERE rule_match_id = ${match.rule_match_id}`.execute(
      portal.db,
    );
    await until(
      async () => ((await colorOf()) === BLOCK_COLORS.Green ? true : undefined),
      'the block to turn green',
      30_000,
    );
    const closed = await portal.db
      .selectFrom('rule_match')
      .select('completion_processed')
      .where('rule_match_id', '=', match.rule_match_id)
      .executeTakeFirstOrThrow();
    expect(closed.completion_processed).toBe(true);
    const history = await portal.db
      .selectFrom('action_history')
      .select(['result_status_id', 'result_detail'])
      .where('rule_match_id', '=', match.rule_match_id)
      .orderBy('action_history_id')
      .execute();
    expect(history.map((row) => row.result_status_id)).toEqual([
      ACTION_RESULT_STATUSES.Success,
      ACTION_RESULT_STATUSES.Success,
      ACTION_RESULT_STATUSES.Success,
    ]);
    expect(history.filter((row) => row.result_detail?.includes('Green'))).toHaveLength(1);
  }, 120_000);
});

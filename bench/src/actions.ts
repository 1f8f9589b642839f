import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { request as undiciRequest, Agent } from 'undici';
import { LEFT_OPERANDS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { tenantCondition } from '@cfs/contracts/rules';
import { DEMO } from '../../server/src/db/demo-ids.js';
import { configureActionRunner, actionRunTask, runAction } from '../../server/src/engines/actions/runner.js';
import { startJobWorker } from '../../server/src/engines/jobs/worker.js';
import { forgetRules } from '../../server/src/engines/rules/rule-cache.js';
import { ruleActionTask } from '../../server/src/engines/rules/actions.js';
import type { BenchPortal } from './bench-portal.js';
import type { RecordFigure } from './fleet.js';

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

/** Runs `work` for each item with at most `concurrency` at once; the seconds it took. */
async function pool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * The action runner (engines/actions): HTTP action runs per second through `runAction` — the
 * placeholders, the guard's resolution, the call through the guarded client and the history row —
 * to an endpoint on 127.0.0.1 (allowed by OUTBOUND_ALLOW), against the same POSTs sent straight
 * through undici with the same concurrency; and the time from a packet that makes an Ingestion
 * rule match to its HTTP action's call arriving at the endpoint (a job worker listening for jobs),
 * p50 and p95, against the packet's own POST.
 */
export async function actions(
  portal: BenchPortal,
  record: RecordFigure,
  options: { runs: number; concurrency: number; matches: number },
): Promise<void> {
  const arrived = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const subject = /"subject":"([^"]*)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1];
      if (subject) arrived.set(subject, performance.now());
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  configureActionRunner({ outboundAllow: '127.0.0.1' });
  const { db } = portal.runtime;
  try {
    const definition = await db
      .insertInto('action_definition')
      .values({
        name: 'Bench hook',
        action_definition_type_id: 4,
        tenant_id: DEMO.contoso,
        endpoint_url: `${endpoint}/hook/{RuleName}`,
        http_method: 'POST',
        headers: 'X-Bench: {Label}',
        body: '{"subject":"{SubjectId}","value":"{Value}","note":"{Note}"}',
      })
      .returning('action_definition_id')
      .executeTakeFirstOrThrow();
    const run = (note: string) => ({
      actionDefinitionId: definition.action_definition_id,
      tenantId: DEMO.contoso,
      parameters: { Note: note },
      origin: { kind: 'test' as const, messageId: randomUUID(), triggeredBy: 'bench' },
    });

    // Throughput, in turns: the runner, then the same calls straight through undici.
    const direct = new Agent({ connections: options.concurrency });
    const items = Array.from({ length: options.runs }, (_, i) => i);
    await pool(items.slice(0, 50), options.concurrency, (i) =>
      runAction(db, run(`warm ${i}`), `bench:warm:${randomUUID()}`),
    );
    const totals = { runner: 0, direct: 0 };
    for (let round = 0; round < 2; round++) {
      totals.runner += await pool(items, options.concurrency, (i) =>
        runAction(db, run(`n ${i}`), `bench:${round}:${i}:${randomUUID()}`),
      );
      totals.direct += await pool(items, options.concurrency, async (i) => {
        const answer = await undiciRequest(`${endpoint}/hook/direct`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ subject: '', note: `n ${i}` }),
          dispatcher: direct,
        });
        await answer.body.dump();
      });
    }
    await direct.close();
    const count = options.runs * 2;
    record({
      name: `HTTP actions run through the runner (placeholders, guard, call, history row; ${options.concurrency} at once)`,
      value: count / totals.runner,
      unit: 'runs/s',
      baselineName: 'the same POSTs straight through undici',
      baseline: count / totals.direct,
    });

    // From a rule match to its action's HTTP call.
    const grant = await portal.app.inject({
      method: 'PUT',
      url: '/v1/tokens',
      headers: { authorization: `Bearer ${await portal.token('admin')}` },
      payload: { tenantId: DEMO.contoso, name: 'Bench actions', lifetimeYears: 1 },
    });
    const token = grant.json<{ generatedToken: string }>().generatedToken;
    const rule = await db
      .insertInto('rule')
      .values({
        tenant_id: DEMO.contoso,
        enabled: true,
        name: 'Bench action rule',
        rule_type_id: RULE_TYPES.Ingestion,
        match_lifetime_seconds: 300,
        conditions: JSON.stringify([
          tenantCondition(DEMO.contoso),
          {
            Type: 0,
            LeftOperand: LEFT_OPERANDS.Value.id,
            LeftOperandFieldName: null,
            Operator: OPERATORS.GreaterThan,
            RightOperand: '500',
            OccurrencePattern: null,
          },
        ]),
        match_actions: JSON.stringify([
          { ActionDefinitionId: definition.action_definition_id, Parameters: { Note: 'match' } },
        ]),
      })
      .returning('rule_id')
      .executeTakeFirstOrThrow();
    forgetRules(db);
    const worker = startJobWorker({
      db,
      tasks: [ruleActionTask, actionRunTask],
      listenUrl: portal.runtime.databaseUrl,
      pollMs: 1000,
      concurrency: 4,
      log: () => undefined,
    });
    const latencies: number[] = [];
    const posts: number[] = [];
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < options.matches; i++) {
        const entityId = randomUUID();
        const started = performance.now();
        const answer = await portal.app.inject({
          method: 'POST',
          url: '/v1/packets',
          headers: { authorization: `Bearer ${token}` },
          payload: { entityId, timestamp: new Date().toISOString(), message: { Value: 900 + i } },
        });
        if (answer.statusCode !== 200) throw new Error(`packet: ${answer.statusCode} ${answer.body}`);
        posts.push(performance.now() - started);
        const until = Date.now() + 10_000;
        while (!arrived.has(entityId)) {
          if (Date.now() > until) throw new Error('The rule action did not arrive within 10 s');
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        if (i >= 3) latencies.push((arrived.get(entityId) ?? started) - started);
      }
    } finally {
      await worker.stop();
      await db
        .updateTable('rule')
        .set({ enabled: false, modified: new Date() })
        .where('rule_id', '=', rule.rule_id)
        .execute();
      forgetRules(db);
    }
    record({
      name: 'rule match → its HTTP action called, p50 (packet POST to the endpoint receiving the call; worker listening)',
      value: percentile(latencies, 50),
      unit: 'ms',
      baselineName: 'the packet POST alone, p50',
      baseline: percentile(posts, 50),
    });
    record({
      name: 'rule match → its HTTP action called, p95',
      value: percentile(latencies, 95),
      unit: 'ms',
      baselineName: 'the packet POST alone, p95',
      baseline: percentile(posts, 95),
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

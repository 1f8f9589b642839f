import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { RUN_PLACEHOLDERS } from '@cfs/contracts/action-parameters';
import { SECRET_MASK } from '@cfs/contracts/action-definitions';
import { ACTION_RESULT_STATUSES, BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import type { ActionRun } from '../src/engines/actions/run.js';
import { actionRunTask, enqueueActionRun, runAction } from '../src/engines/actions/runner.js';
import { claimJobs } from '../src/engines/jobs/queue.js';
import { defineTask } from '../src/engines/jobs/task.js';
import { startJobWorker } from '../src/engines/jobs/worker.js';
import { createHttpAction, createWorkUnitAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

const SECRET = 'sk-live-0123456789abcdef';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let portal: TestPortal;
let server: http.Server;
let base: string;
const seen: Seen[] = [];
/** What the endpoint answers next, per path: a list of statuses used up in order (the last one stays). */
const script = new Map<string, number[]>();
let delayMs = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const statuses = script.get(path) ?? [200];
      const status = statuses.length > 1 ? (statuses.shift() as number) : (statuses[0] ?? 200);
      setTimeout(() => {
        // Echoes the credential it was sent: the history must not keep it.
        response
          .writeHead(status, {
            'content-type': 'application/json',
            'x-echo': String(request.headers.authorization ?? ''),
          })
          .end(JSON.stringify({ ok: status < 400, authorization: request.headers.authorization ?? null }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  portal = await createTestPortal({ OUTBOUND_ALLOW: '127.0.0.1' });
  // A secret of Contoso's, stored as the tenants area stores it (encrypted).
  const sealed = portal.runtime.secretBox.encrypt(SECRET);
  const secret = await scoped(portal.db, ALL_TENANTS)
    .insertInto('tenant_secret', { tenant_id: DEMO.contoso, name: 'ApiKey', latest_version: 1 })
    .returning('secret_id')
    .executeTakeFirstOrThrow();
  await portal.db
    .insertInto('tenant_secret_version')
    .values({ secret_id: secret.secret_id, version: 1, key_id: sealed.keyId, ciphertext: sealed.ciphertext })
    .execute();
});
afterAll(async () => {
  await portal?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
  script.clear();
  delayMs = 0;
});

const defineAction = (values: Parameters<typeof createHttpAction>[1]) => createHttpAction(portal, values);
/** A work unit of Contoso's, with the fields a run's placeholders read. */
const aUnit = async () => {
  const unit = await createWorkUnitAs(portal, 'operator', DEMO.contoso);
  return { work_unit_id: unit.workUnitId, title: unit.title, tenant_id: unit.tenantId };
};

/** What a rule match's Create Work Unit leaves behind: its history, naming the unit it opened. */
const recordUnitOpened = (ruleMatchId: string, workUnitId: number) =>
  scoped(portal.db, ALL_TENANTS)
    .insertInto('action_history', {
      tenant_id: DEMO.contoso,
      action_definition_id: BUILT_IN_ACTIONS.createWorkUnit.id,
      result_status_id: ACTION_RESULT_STATUSES.Success,
      input_parameters: '{}',
      result_detail: 'Work unit created.',
      correlation_id: ruleMatchId,
      rule_match_id: ruleMatchId,
      reference_id: String(workUnitId),
      job_key: `opened:${ruleMatchId}`,
    })
    .execute();

const testRun = (actionDefinitionId: string, parameters: Record<string, string> = {}): ActionRun => ({
  actionDefinitionId,
  tenantId: DEMO.contoso,
  parameters,
  origin: { kind: 'test', messageId: randomUUID(), triggeredBy: 'admin' },
});

/** A run by a rule's match or expiration, of a rule of its own (of a match of its own unless `ruleMatchId` names one). */
const ruleOrigin = (match: {
  ruleMatchId?: string;
  ruleName: string;
  subjectId: string;
  label: string | null;
  phase: 'match' | 'expiration';
}): ActionRun['origin'] => ({
  kind: 'rule',
  ruleMatchId: match.ruleMatchId ?? randomUUID(),
  ruleId: randomUUID(),
  ruleName: match.ruleName,
  subjectId: match.subjectId,
  label: match.label,
  phase: match.phase,
  suppressed: false,
});

/** A run by a protocol's step on the work unit, asked for by hand by the operator. */
const protocolOrigin = (workUnitId: number): ActionRun['origin'] => ({
  kind: 'protocol',
  workUnitId,
  protocolId: 1,
  protocolActionId: randomUUID(),
  workUnitEventTypeId: 1,
  manual: true,
  triggeredBy: 'operator',
  workUnitEventId: null,
});

const historyOf = (key: string) =>
  scoped(portal.db, ALL_TENANTS).selectFrom('action_history').selectAll().where('job_key', '=', key).execute();

async function waitFor<T>(read: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('placeholders', () => {
  test('filled case-sensitively, encoded where they stand; missing ones left empty and named; secrets masked in history', async () => {
    const id = await defineAction({
      url: `${base}/hook/{Path}?q={Query}`,
      headers: 'Authorization: Bearer {Secret:ApiKey}\nX-Case: {name}\nX-Name: {Name}',
      body: '{"note":"{Note}","missing":"{Nope}","message":"{MessageId}"}',
    });
    const run = testRun(id, { Path: 'a b/c', Query: 'x&y=1', Note: 'say "hi"\n', Name: 'Upper' });
    const key = `t:${randomUUID()}`;
    await runAction(portal.db, run, key);
    expect(seen).toHaveLength(1);
    const call = seen[0] as Seen;
    expect(call.method).toBe('POST');
    expect(call.url).toBe('/hook/a%20b%2Fc?q=x%26y%3D1');
    expect(call.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(call.headers['x-case']).toBe('');
    expect(call.headers['x-name']).toBe('Upper');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers['idempotency-key']).toBe(key);
    expect(JSON.parse(call.body)).toEqual({
      note: 'say "hi"\n',
      missing: '',
      message: run.origin.kind === 'test' ? run.origin.messageId : '',
    });

    const [row] = await historyOf(key);
    expect(row?.result_status_id).toBe(ACTION_RESULT_STATUSES.Success);
    expect(row?.result_detail).toContain('{name}');
    expect(row?.result_detail).toContain('{Nope}');
    expect(row?.result_detail).not.toContain('{Name}');
    expect(row?.response_status).toBe(200);
    expect(row?.duration_ms).toBeGreaterThanOrEqual(0);
    const everything = JSON.stringify(row);
    expect(everything).not.toContain(SECRET);
    expect((row?.request as { headers: Record<string, string> }).headers.Authorization).toBe(`Bearer ${SECRET_MASK}`);
    expect(row?.response_body).toContain(SECRET_MASK);

    // The detail dialog's read gives the same, masked.
    const detail = await portal.as('admin', { method: 'GET', url: `/v1/actionHistories/${row?.action_history_id}` });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.body).not.toContain(SECRET);
    expect(detail.json()).toMatchObject({
      responseStatus: 200,
      request: { method: 'POST', headers: { 'Idempotency-Key': key } },
    });
  });

  test("a protocol step's run reads the work unit's fields", async () => {
    const unit = await aUnit();
    const id = await defineAction({
      url: `${base}/unit/{WorkUnitId}`,
      body: '{"title":"{Title}","tenant":"{TenantId}","by":"{TriggeredBy}"}',
    });
    const key = `p:${randomUUID()}`;
    await runAction(
      portal.db,
      {
        actionDefinitionId: id,
        tenantId: DEMO.contoso,
        parameters: {},
        origin: protocolOrigin(unit.work_unit_id),
      },
      key,
    );
    expect(seen[0]?.url).toBe(`/unit/${unit.work_unit_id}`);
    expect(JSON.parse(seen[0]?.body ?? '{}')).toEqual({ title: unit.title, tenant: DEMO.contoso, by: 'operator' });
    const [row] = await historyOf(key);
    expect(row?.work_unit_id).toBe(unit.work_unit_id);
    const listed = await portal.as('admin', {
      method: 'GET',
      url: `/v1/actionHistories?$filter=workUnitId eq ${unit.work_unit_id}`,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(
      (listed.json() as { value: { actionHistoryId: number }[] }).value.map((entry) => entry.actionHistoryId),
    ).toContain(Number(row?.action_history_id));
  });
});

test("a rule's run reads the match and its entity's latest packet", async () => {
  const entityId = randomUUID();
  await scoped(portal.db, ALL_TENANTS)
    .insertInto('packet_latest', {
      entity_id: entityId,
      tenant_id: DEMO.contoso,
      timestamp: new Date(),
      message: JSON.stringify({ Value: 97, Metrics: { cpu: 93.5 } }),
    })
    .execute();
  const id = await defineAction({
    url: `${base}/rule?rule={RuleName}`,
    body: '{"value":"{Value}","cpu":"{Metrics.cpu}","label":"{Label}","subject":"{SubjectId}"}',
  });
  const key = `m:${randomUUID()}`;
  const ruleMatchId = randomUUID();
  await runAction(
    portal.db,
    {
      actionDefinitionId: id,
      tenantId: DEMO.contoso,
      parameters: {},
      origin: ruleOrigin({
        ruleMatchId,
        ruleName: 'CPU high & hot',
        subjectId: entityId,
        label: 'web-01',
        phase: 'match',
      }),
    },
    key,
  );
  expect(seen[0]?.url).toBe('/rule?rule=CPU%20high%20%26%20hot');
  expect(JSON.parse(seen[0]?.body ?? '{}')).toEqual({ value: '97', cpu: '93.5', label: 'web-01', subject: entityId });
  const [row] = await historyOf(key);
  expect(row).toMatchObject({
    rule_match_id: ruleMatchId,
    correlation_id: ruleMatchId,
    result_status_id: ACTION_RESULT_STATUSES.Success,
  });
  // A work unit rule's subject is the unit's id: it has no packet, its packet placeholders are missing.
  const unitKey = `m:${randomUUID()}`;
  await runAction(
    portal.db,
    {
      actionDefinitionId: id,
      tenantId: DEMO.contoso,
      parameters: {},
      origin: ruleOrigin({ ruleName: 'Units', subjectId: '42', label: null, phase: 'expiration' }),
    },
    unitKey,
  );
  const [unitRow] = await historyOf(unitKey);
  expect(unitRow?.result_status_id).toBe(ACTION_RESULT_STATUSES.Success);
  expect(unitRow?.result_detail).toContain('{Value}, {Metrics.cpu}');
});

describe('outcomes', () => {
  test('a 4xx is a Failure at once, not retried', async () => {
    script.set('/gone', [404]);
    const id = await defineAction({ url: `${base}/gone`, method: 'GET' });
    const key = `f:${randomUUID()}`;
    await runAction(portal.db, testRun(id), key);
    const [row] = await historyOf(key);
    expect(row?.result_status_id).toBe(ACTION_RESULT_STATUSES.Failure);
    expect(row?.response_status).toBe(404);
    expect(seen).toHaveLength(1);
  });

  test('an address the guard refuses is a Failure at once, with what would have been sent', async () => {
    const id = await defineAction({ url: 'http://169.254.169.254/latest/meta-data/{Secret:ApiKey}' });
    const key = `g:${randomUUID()}`;
    await runAction(portal.db, testRun(id), key);
    const [row] = await historyOf(key);
    expect(row?.result_status_id).toBe(ACTION_RESULT_STATUSES.Failure);
    expect(row?.result_detail).toMatch(/not allowed/);
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect((row?.request as { url: string }).url).toContain(SECRET_MASK);
  });

  test('a 503 then 200 is retried with backoff: one Success row, the same Idempotency-Key twice', async () => {
    script.set('/flaky', [503, 200]);
    const id = await defineAction({ url: `${base}/flaky`, body: '{}' });
    const key = `r:${randomUUID()}`;
    await portal.db.transaction().execute((trx) => enqueueActionRun(trx, testRun(id), key));
    const worker = startJobWorker({ db: portal.db, tasks: [actionRunTask], pollMs: 100, log: () => undefined });
    try {
      const row = await waitFor(async () => (await historyOf(key))[0]);
      expect(row.result_status_id).toBe(ACTION_RESULT_STATUSES.Success);
    } finally {
      await worker.stop();
    }
    expect(seen.map((call) => call.headers['idempotency-key'])).toEqual([key, key]);
    const job = await portal.db
      .selectFrom('job')
      .select(['attempts', 'state'])
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(job.attempts).toBe(2);
    expect(await historyOf(key)).toHaveLength(1);
  });

  test('after the last attempt a Failure row records the last answer', async () => {
    script.set('/down', [503]);
    const id = await defineAction({ url: `${base}/down`, body: '{}' });
    const key = `d:${randomUUID()}`;
    // The actions task, with short backoff and two attempts so the test does not wait minutes.
    const quick = defineTask({ ...actionRunTask, attempts: 2, backoff: () => 50 });
    await portal.db.transaction().execute((trx) => enqueueActionRun(trx, testRun(id), key));
    await portal.db.updateTable('job').set({ max_attempts: 2 }).where('key', '=', key).execute();
    const worker = startJobWorker({ db: portal.db, tasks: [quick], pollMs: 50, log: () => undefined });
    try {
      const row = await waitFor(async () => (await historyOf(key))[0]);
      expect(row.result_status_id).toBe(ACTION_RESULT_STATUSES.Failure);
      expect(row.response_status).toBe(503);
      expect(row.result_detail).toMatch(/Gave up after the last attempt/);
    } finally {
      await worker.stop();
    }
    expect(seen).toHaveLength(2);
  });

  test('a job whose worker died mid-call runs again: one history row, the same Idempotency-Key', async () => {
    const id = await defineAction({ url: `${base}/slow`, body: '{}' });
    const key = `k:${randomUUID()}`;
    const run = testRun(id);
    await portal.db.transaction().execute((trx) => enqueueActionRun(trx, run, key));
    // The first worker claims it with a short lease and is mid-call when the lease runs out (it never renews it: it died).
    const [claimed] = await claimJobs(portal.db, 'dead-worker', [actionRunTask.name], 1, 300);
    expect(claimed?.key).toBe(key);
    delayMs = 1200;
    const dying = runAction(portal.db, run, key);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const worker = startJobWorker({ db: portal.db, tasks: [actionRunTask], pollMs: 100, log: () => undefined });
    try {
      await waitFor(async () =>
        (await portal.db.selectFrom('job').select('state').where('key', '=', key).executeTakeFirst())?.state === 'done'
          ? true
          : undefined,
      );
      await dying;
    } finally {
      await worker.stop();
    }
    expect(seen.map((call) => call.headers['idempotency-key'])).toEqual([key, key]);
    expect(await historyOf(key)).toHaveLength(1);
  });
});

test("a rule's run fills {EntityId}, and {WorkUnitId} and {Title} from the unit its match opened or a work unit rule's subject", async () => {
  const unit = await aUnit();
  const id = await defineAction({ url: `${base}/rule/{EntityId}/{WorkUnitId}`, body: '{"title":"{Title}"}' });
  const rule = (subjectId: string, ruleMatchId = randomUUID()) =>
    ruleOrigin({ ruleMatchId, ruleName: 'Disk full', subjectId, label: 'db-02', phase: 'expiration' });

  // An entity's match before any unit: the entity, and the title its Create Work Unit would give.
  const entityId = randomUUID();
  await runAction(
    portal.db,
    { actionDefinitionId: id, tenantId: DEMO.contoso, parameters: {}, origin: rule(entityId) },
    `m:${randomUUID()}`,
  );
  expect(seen.at(-1)?.url).toBe(`/rule/${entityId}/`);
  expect(JSON.parse(seen.at(-1)?.body ?? '{}')).toEqual({ title: `Disk full: db-02 (${entityId})` });

  // The match's Create Work Unit opened a unit: its id and title.
  const ruleMatchId = randomUUID();
  await recordUnitOpened(ruleMatchId, unit.work_unit_id);
  await runAction(
    portal.db,
    { actionDefinitionId: id, tenantId: DEMO.contoso, parameters: {}, origin: rule(entityId, ruleMatchId) },
    `m:${randomUUID()}`,
  );
  expect(seen.at(-1)?.url).toBe(`/rule/${entityId}/${unit.work_unit_id}`);
  expect(JSON.parse(seen.at(-1)?.body ?? '{}')).toEqual({ title: unit.title });

  // A work unit rule: its subject is the unit.
  await runAction(
    portal.db,
    { actionDefinitionId: id, tenantId: DEMO.contoso, parameters: {}, origin: rule(String(unit.work_unit_id)) },
    `m:${randomUUID()}`,
  );
  expect(seen.at(-1)?.url).toBe(`/rule//${unit.work_unit_id}`);
  expect(JSON.parse(seen.at(-1)?.body ?? '{}')).toEqual({ title: unit.title });
});

test('every placeholder the editors list for a kind of run is filled by such a run', async () => {
  const all = scoped(portal.db, ALL_TENANTS);
  const unit = await aUnit();
  const entityId = randomUUID();
  await all
    .insertInto('packet_latest', {
      entity_id: entityId,
      tenant_id: DEMO.contoso,
      timestamp: new Date(),
      message: JSON.stringify({ Value: 1 }),
    })
    .execute();
  const ruleMatchId = randomUUID();
  await recordUnitOpened(ruleMatchId, unit.work_unit_id);
  const origins: Record<'protocol' | 'rule' | 'test', ActionRun['origin']> = {
    protocol: protocolOrigin(unit.work_unit_id),
    rule: ruleOrigin({ ruleMatchId, ruleName: 'R', subjectId: entityId, label: 'L', phase: 'match' }),
    test: { kind: 'test', messageId: randomUUID(), triggeredBy: 'admin' },
  };
  for (const [kind, origin] of Object.entries(origins) as [keyof typeof origins, ActionRun['origin']][]) {
    const names = [...RUN_PLACEHOLDERS.any, ...RUN_PLACEHOLDERS[kind]];
    const id = await defineAction({
      url: `${base}/all`,
      body: JSON.stringify(Object.fromEntries(names.map((name) => [name, `{${name}}`]))),
    });
    const key = `all:${randomUUID()}`;
    await runAction(portal.db, { actionDefinitionId: id, tenantId: DEMO.contoso, parameters: {}, origin }, key);
    const [row] = await historyOf(key);
    expect(row?.result_detail, kind).not.toContain('Placeholders without a value');
  }
});

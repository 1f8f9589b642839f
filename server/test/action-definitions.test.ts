import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import { type ActionDefinition } from '@cfs/contracts/action-definitions';
import { ACTION_RESULT_STATUSES, BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import { actionRunTask } from '../src/engines/actions/runner.js';
import { startJobWorker } from '../src/engines/jobs/worker.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
let server: http.Server;
let port: number;
const calls: { url: string; body: string }[] = [];

const stamp = () => Math.random().toString(36).slice(2, 8);
const body = (values: Record<string, unknown> = {}) => ({
  name: `Hook ${stamp()}`,
  description: 'Posts to the ticketing system',
  actionDefinitionTypeId: 4,
  tenantId: DEMO.contoso,
  inputParameters: 'Priority',
  endpointUrl: `http://127.0.0.1:${port}/hook?priority={Priority}`,
  httpMethod: 'POST',
  headers: 'X-Source: cfs',
  body: '{"priority":"{Priority}","extra":"{Extra}"}',
  ...values,
});
type ErrorAnswer = { message: string; errors?: Record<string, string[]> };

async function create(user: string, values: Record<string, unknown> = {}): Promise<ActionDefinition> {
  const response = await portal.as(user, { method: 'PUT', url: '/v1/actionDefinitions', payload: body(values) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ActionDefinition>();
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      calls.push({ url: request.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(201, { 'content-type': 'application/json' }).end('{"ticket":42}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  portal = await createTestPortal({ OUTBOUND_ALLOW: `127.0.0.1:${port}` });
});
afterAll(async () => {
  await portal?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe('the action catalogue', () => {
  test('creates, reads, lists with its tenant, searches and updates, each change audited', async () => {
    const action = await create('admin', { name: `Catalogue ${stamp()}` });
    expect(action).toMatchObject({
      actionDefinitionTypeId: 4,
      tenantId: DEMO.contoso,
      httpMethod: 'POST',
      modifiedBy: 'admin',
    });
    const read = await portal.as('operator', {
      method: 'GET',
      url: `/v1/actionDefinitions/${action.actionDefinitionId}`,
    });
    expect(read.statusCode).toBe(200);
    const list = await portal.as('admin', {
      method: 'GET',
      url: `/v1/actionDefinitions?$count=true&$expand=tenant&$orderby=name asc&$top=10&$filter=${encodeURIComponent(`contains(name,'${action.name}') or contains(description,'${action.name}')`)}`,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({
      '@odata.count': 1,
      value: [{ actionDefinitionId: action.actionDefinitionId, tenant: { tenantId: DEMO.contoso } }],
    });
    const updated = await portal.as('admin', {
      method: 'POST',
      url: `/v1/actionDefinitions/${action.actionDefinitionId}`,
      payload: body({ name: action.name, httpMethod: 'PUT' }),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<ActionDefinition>().httpMethod).toBe('PUT');
    const audit = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('audit_event')
      .select(['action', 'changes'])
      .where('entity_id', '=', action.actionDefinitionId)
      .orderBy('audit_event_id')
      .execute();
    expect(audit.map((event) => event.action)).toEqual(['create', 'update']);
    expect(audit[1]?.changes).toMatchObject({ httpMethod: { from: 'POST', to: 'PUT' } });
    // Another tenant's user does not see it.
    expect(
      (await portal.as('operator2', { method: 'GET', url: `/v1/actionDefinitions/${action.actionDefinitionId}` }))
        .statusCode,
    ).toBe(404);
  });

  test('refuses built-in actions for edit and delete, and built-in types on create', async () => {
    for (const id of Object.values(BUILT_IN_ACTIONS).map((builtIn) => builtIn.id)) {
      const edit = await portal.as('admin', { method: 'POST', url: `/v1/actionDefinitions/${id}`, payload: body() });
      expect(edit.statusCode).toBe(400);
      expect(edit.json<ErrorAnswer>().message).toBe(AUTOMATION_MESSAGES.builtInReadOnly);
      const remove = await portal.as('admin', { method: 'DELETE', url: `/v1/actionDefinitions/${id}` });
      expect(remove.statusCode).toBe(400);
      expect(remove.json<ErrorAnswer>().message).toBe(AUTOMATION_MESSAGES.builtInReadOnly);
    }
    const builtInType = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/actionDefinitions',
      payload: body({ actionDefinitionTypeId: 6 }),
    });
    expect(builtInType.statusCode).toBe(400);
    expect(JSON.stringify(builtInType.json())).toContain(AUTOMATION_MESSAGES.builtInReadOnly);
  });

  test("bad input is a 400 with the spec's texts; forbidden endpoints are refused at save; nothing is written", async () => {
    const before = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('action_definition')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const noName = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/actionDefinitions',
      payload: body({ name: '' }),
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.json<ErrorAnswer>().errors?.name).toEqual([AUTOMATION_MESSAGES.fieldRequired]);
    for (const endpointUrl of [
      'http://169.254.169.254/latest/meta-data/',
      'http://0x7f000001/',
      'http://[::ffff:127.0.0.1]/',
      `http://localhost:${port + 1}/hook`,
      `http://127.0.0.1:${port + 1}/`,
    ]) {
      const refused = await portal.as('admin', {
        method: 'PUT',
        url: '/v1/actionDefinitions',
        payload: body({ endpointUrl }),
      });
      expect(refused.statusCode, endpointUrl).toBe(400);
      expect(refused.json<ErrorAnswer>().errors?.endpointUrl?.[0]).toMatch(
        /^This endpoint cannot be called: The address is not allowed/,
      );
    }
    const ftp = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/actionDefinitions',
      payload: body({ endpointUrl: 'ftp://example.com/' }),
    });
    expect(ftp.json<ErrorAnswer>().errors?.endpointUrl).toEqual([AUTOMATION_MESSAGES.endpointInvalid]);
    const headers = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/actionDefinitions',
      payload: body({ headers: 'no colon here' }),
    });
    expect(headers.json<ErrorAnswer>().errors?.headers).toEqual([AUTOMATION_MESSAGES.headerInvalid]);
    // A tenant's user may not write what every tenant shares.
    const shared = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/actionDefinitions',
      payload: body({ tenantId: null }),
    });
    expect(shared.statusCode).toBe(403);
    const after = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('action_definition')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  test('delete lists its rules first, then removes the action, its protocol steps and its entries in rules, in one go', async () => {
    const action = await create('admin', { actionDefinitionTypeId: 4 });
    const setRed = { ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Red' } };
    const ours = { ActionDefinitionId: action.actionDefinitionId, Parameters: { Priority: '1' } };
    const rule = await portal.as('admin', {
      method: 'PUT',
      url: '/v1/rules',
      payload: {
        name: `Uses ${stamp()}`,
        ruleTypeId: 1,
        tenantId: DEMO.contoso,
        matchLifetime: '00:05:00',
        conditions: [{ Type: 0, LeftOperand: 1, Operator: 1, RightOperand: 'x' }],
        matchActions: [setRed, ours],
        expirationActions: [ours],
      },
    });
    expect(rule.statusCode, rule.body).toBe(200);
    const ruleId = rule.json<{ ruleId: string }>().ruleId;
    const dependants = await portal.as('admin', {
      method: 'GET',
      url: `/v1/rules/GetRulesForAction(actionDefinitionId=${action.actionDefinitionId})`,
    });
    expect(dependants.statusCode, dependants.body).toBe(200);
    expect(dependants.json()).toEqual([{ ruleId, name: rule.json<{ name: string }>().name }]);
    const protocol = await scoped(portal.db, ALL_TENANTS)
      .insertInto('protocol', { name: `P ${stamp()}`, tenant_id: DEMO.contoso })
      .returning('protocol_id')
      .executeTakeFirstOrThrow();
    await scoped(portal.db, ALL_TENANTS)
      .insertInto('protocol_action', {
        protocol_id: protocol.protocol_id,
        tenant_id: DEMO.contoso,
        action_definition_id: action.actionDefinitionId,
        work_unit_event_type_id: 1,
      })
      .execute();

    const removed = await portal.as('admin', {
      method: 'DELETE',
      url: `/v1/actionDefinitions/${action.actionDefinitionId}`,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: AUTOMATION_MESSAGES.actionDeleted });
    expect(
      (await portal.as('admin', { method: 'GET', url: `/v1/actionDefinitions/${action.actionDefinitionId}` }))
        .statusCode,
    ).toBe(404);
    const after = await portal.as('admin', { method: 'GET', url: `/v1/rules/${ruleId}` });
    expect(after.json()).toMatchObject({ matchActions: [setRed], expirationActions: [] });
    const steps = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('protocol_action')
      .select('protocol_action_id')
      .where('protocol_id', '=', protocol.protocol_id)
      .execute();
    expect(steps).toEqual([]);
    expect(
      (
        await portal.as('admin', {
          method: 'GET',
          url: `/v1/rules/GetRulesForAction(actionDefinitionId=${action.actionDefinitionId})`,
        })
      ).json(),
    ).toEqual([]);
  });

  test('offers protocol steps the protocol types, rules the rule types', async () => {
    const ruleOnly = await create('admin', { actionDefinitionTypeId: 3 });
    const protocolOnly = await create('admin', { actionDefinitionTypeId: 2 });
    const forProtocols = await portal.as('admin', {
      method: 'GET',
      url: `/v1/actionDefinitions/GetActionDefinitionsForProtocols(tenantId=${DEMO.contoso})`,
    });
    expect(forProtocols.statusCode, forProtocols.body).toBe(200);
    const ids = forProtocols.json<{ actionDefinitionId: string }[]>().map((row) => row.actionDefinitionId);
    expect(ids).toContain(protocolOnly.actionDefinitionId);
    expect(ids).toContain(BUILT_IN_ACTIONS.sendEmail.id);
    expect(ids).not.toContain(ruleOnly.actionDefinitionId);
    expect(ids).not.toContain(BUILT_IN_ACTIONS.setColor.id);
    expect(
      (
        await portal.as('operator2', {
          method: 'GET',
          url: `/v1/actionDefinitions/GetActionDefinitionsForProtocols(tenantId=${DEMO.contoso})`,
        })
      ).statusCode,
    ).toBe(404);
  });

  test('a test run is queued, runs, and its history row is found by the message id', async () => {
    const action = await create('admin');
    const answer = await portal.as('admin', {
      method: 'POST',
      url: `/v1/actionDefinitions/${action.actionDefinitionId}/test`,
      payload: { parameters: { Priority: 'high' }, extra: [{ param: 'Extra', value: 'yes' }] },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const { id } = answer.json<{ id: string }>();
    const tooMany = await portal.as('admin', {
      method: 'POST',
      url: `/v1/actionDefinitions/${action.actionDefinitionId}/test`,
      payload: { extra: Array.from({ length: 8 }, (_, i) => ({ param: `P${i}`, value: 'v' })) },
    });
    expect(tooMany.statusCode).toBe(400);
    const worker = startJobWorker({ db: portal.db, tasks: [actionRunTask], pollMs: 100, log: () => undefined });
    try {
      const until = Date.now() + 10_000;
      let rows: { actionHistoryId: number; resultStatusId: number; messageId: string }[] = [];
      while (rows.length === 0 && Date.now() < until) {
        const listed = await portal.as('admin', {
          method: 'GET',
          url: `/v1/actionHistories?$filter=messageId eq '${id}'&$expand=actionDefinition`,
        });
        expect(listed.statusCode, listed.body).toBe(200);
        rows = listed.json<{ value: typeof rows }>().value;
        if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(rows).toHaveLength(1);
      expect(rows[0]?.resultStatusId).toBe(ACTION_RESULT_STATUSES.Success);
      const detail = await portal.as('admin', {
        method: 'GET',
        url: `/v1/actionHistories/${rows[0]?.actionHistoryId}`,
      });
      expect(detail.json()).toMatchObject({
        messageId: id,
        responseStatus: 201,
        responseBody: '{"ticket":42}',
        request: { method: 'POST', url: `http://127.0.0.1:${port}/hook?priority=high` },
      });
    } finally {
      await worker.stop();
    }
    expect(calls.at(-1)).toEqual({ url: '/hook?priority=high', body: '{"priority":"high","extra":"yes"}' });
  });

  test("takes a test's body as the input values themselves (the spec's form) and names one the action lacks", async () => {
    const action = await create('admin');
    const url = `/v1/actionDefinitions/${action.actionDefinitionId}/test`;
    const queued = async (payload: unknown) => {
      const answer = await portal.as('admin', { method: 'POST', url, payload: payload as Record<string, unknown> });
      expect(answer.statusCode, answer.body).toBe(200);
      const job = await portal.db
        .selectFrom('job')
        .select('payload')
        .where('task', '=', actionRunTask.name)
        .where('key', '=', `test:${answer.json<{ id: string }>().id}`)
        .executeTakeFirstOrThrow();
      return (job.payload as { parameters: Record<string, string> }).parameters;
    };
    expect(await queued({ Priority: 'high' })).toEqual({ Priority: 'high' });
    expect(await queued({ tenantId: DEMO.contoso, Priority: 'low' })).toEqual({ Priority: 'low' });
    expect(await queued({ parameters: { Priority: 'ours' }, extra: [{ param: 'Extra', value: 'yes' }] })).toEqual({
      Priority: 'ours',
      Extra: 'yes',
    });
    const refusals: [unknown, string, string][] = [
      [{ Who: 'x' }, 'Who', 'Unknown field "Who": its input parameters are Priority (send others in extra).'],
      [
        { parameters: { Who: 'x' } },
        'Who',
        'Unknown field "Who": its input parameters are Priority (send others in extra).',
      ],
      [{ parameters: { Priority: 'x' }, Who: 'x' }, 'Who', 'Unknown field "Who".'],
      [{ extra: [{ param: 'P', value: 'v', note: 'n' }] }, 'extra.0.note', 'Unknown field "extra.0.note".'],
    ];
    for (const [payload, field, message] of refusals) {
      const refused = await portal.as('admin', { method: 'POST', url, payload: payload as Record<string, unknown> });
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json<ErrorAnswer>().errors).toEqual({ [field]: [message] });
    }
  });
});

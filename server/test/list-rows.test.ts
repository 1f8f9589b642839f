import type { RouteOptions } from 'fastify';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app.js';
import { DEMO } from '../src/db/seed.js';
import { createCategoryAs, createTokenAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

/*
 * List rows are described by the contract: each list route names the schema of its entity, and
 * every row it answers (all fields, no expansions) is a part of that schema, with its types.
 * New list routes are checked the day they are registered.
 */
let portal: TestPortal;
const lists: { url: string; row: z.ZodObject }[] = [];

beforeAll(async () => {
  portal = await createTestPortal();
  const { runtime } = portal;
  const app = await buildApp({
    ...runtime,
    ...(runtime.provider ? { provider: runtime.provider } : {}),
    logger: false,
    routeObserver: (route: RouteOptions) => {
      const row = (route.config as { listRow?: z.ZodObject } | undefined)?.listRow;
      if (row && String(route.method) === 'GET' && !route.url.endsWith('/Export')) lists.push({ url: route.url, row });
    },
  });
  await app.ready();
  await app.close();
  const token = await createTokenAs(portal, 'admin', DEMO.contoso);
  const category = await createCategoryAs(portal, 'admin', DEMO.contoso);
  await portal.as('admin', { method: 'PUT', url: '/v1/workunitsubcategories', payload: { workUnitCategoryId: category.workUnitCategoryId, name: 'Routers', isEnabled: true } });
  // A device operation (devices and packages are written as their areas leave them).
  const device = await portal.db.insertInto('device').values({ tenant_id: DEMO.contoso, subscription_id: DEMO.contosoProduction, name: 'rows-01' }).returning('device_id').executeTakeFirstOrThrow();
  const pkg = await portal.db.insertInto('package').values({ name: 'Rows', package_type_id: 1, operating_system_ids: [1] }).returning('package_id').executeTakeFirstOrThrow();
  // An installed version of it (a row of the version report).
  const version = await portal.db
    .insertInto('package_version')
    .values({ package_id: pkg.package_id, version: '1.0.0', label: 'Rows', package_version_status_id: 1, file_sha256: 'a'.repeat(64), file_name: 'rows.zip', file_size: 1 })
    .returning('package_version_id')
    .executeTakeFirstOrThrow();
  await portal.db.insertInto('device_installation').values({ device_id: device.device_id, package_id: pkg.package_id, tenant_id: DEMO.contoso, package_version_id: version.package_version_id, installed_package_version_id: version.package_version_id, install_status_id: 2 }).execute();
  const operation = await portal.db
    .insertInto('operation')
    .values({ package_id: pkg.package_id, name: 'Rows', frequency_type_ids: [2], operation_type_id: 6, operation_result_type_id: 2 })
    .returning('operation_id')
    .executeTakeFirstOrThrow();
  const packet = { entityId: device.device_id, timestamp: new Date().toISOString(), message: { Value: 12.5, Metrics: { CpuPercent: 12.5, MemoryPercent: 40 } } };
  const reported = await portal.app.inject({ method: 'POST', url: '/v1/packets', headers: { authorization: `Bearer ${token.generatedToken}` }, payload: packet });
  expect(reported.statusCode, reported.body).toBe(200);
  // A rule match (the rule engine's own row, written here as it would).
  const rule = await portal.db
    .insertInto('rule')
    .values({ tenant_id: DEMO.contoso, name: 'Rows', rule_type_id: 1, match_lifetime_seconds: 300, conditions: JSON.stringify([{ Type: 0, LeftOperand: 1, Operator: 13 }]) })
    .returning('rule_id')
    .executeTakeFirstOrThrow();
  const match = await portal.db
    .insertInto('rule_match')
    .values({ rule_id: rule.rule_id, tenant_id: DEMO.contoso, subject_id: device.device_id, label: 'rows-01', first_match: new Date(), last_match: new Date(), expires: new Date(Date.now() + 300_000), rule_packet: JSON.stringify(packet), reason: JSON.stringify({ conditions: [], timestamp: null }) })
    .returning('rule_match_id')
    .executeTakeFirstOrThrow();
  // What its action did (the engine's action history row).
  await portal.db
    .insertInto('action_history')
    .values({ tenant_id: DEMO.contoso, action_definition_id: BUILT_IN_ACTIONS.setColor.id, result_status_id: 1, input_parameters: '{"Color":"Red"}', result_detail: 'Colour set to Red', correlation_id: match.rule_match_id, reference_id: device.device_id, rule_match_id: match.rule_match_id })
    .execute();
  await portal.db.insertInto('email_outbox').values({ tenant_id: DEMO.contoso, template: 'Simple', to_addresses: 'noc@contoso.example', subject: 'Rows', body: '<p>Rows</p>', transport: 'outbox' }).execute();
  // A protocol with one step (protocols and protocolActions).
  const protocol = await portal.as('admin', { method: 'PUT', url: '/v1/protocols', payload: { name: 'Rows', tenantId: DEMO.contoso, description: 'Rows', manualActions: 'Call the owner' } });
  await portal.as('admin', { method: 'PUT', url: '/v1/protocolActions', payload: { protocolId: protocol.json<{ protocolId: number }>().protocolId, actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id, workUnitEventTypeId: 1, parameters: { Template: 'Simple' }, summary: 'Rows' } });
  // A user-made HTTP action beside the built-ins (its endpoint, method, headers and body set).
  await portal.db.insertInto('action_definition').values({ tenant_id: DEMO.contoso, name: 'Rows hook', action_definition_type_id: 4, input_parameters: 'Host', endpoint_url: 'https://8.8.8.8/{Host}', http_method: 'POST', headers: 'X-Rows: 1', body: '{}' }).execute();
  await portal.as('admin', { method: 'PUT', url: '/v1/deviceOperations', payload: { deviceId: device.device_id, operationId: operation.operation_id, label: 'Rows', frequencyTypeId: 2, interval: '00:05:00' } });
  const ruleThroughApi = await portal.as('admin', {
    method: 'PUT',
    url: '/v1/rules',
    payload: { name: 'Rows', ruleTypeId: 1, tenantId: DEMO.contoso, matchLifetime: '00:05:00', timeConditions: JSON.stringify({ TimeZoneId: 'UTC', DaysOfWeek: [1] }), conditions: [{ LeftOperand: 1, Operator: 1, RightOperand: 'x' }] },
  });
  expect(ruleThroughApi.statusCode, ruleThroughApi.body).toBe(200);
  // A work unit communication with a past step (workunitcommunications and their activities).
  const communication = await portal.as('admin', { method: 'PUT', url: '/v1/workunitcommunications', payload: { title: 'Rows', tenantId: DEMO.contoso, serviceManager: 'Rows', nextUpdate: new Date().toISOString() } });
  const communicationId = communication.json<{ workUnitCommunicationId: string }>().workUnitCommunicationId;
  await portal.as('admin', { method: 'PUT', url: '/v1/workunitcommunicationactivities', payload: { workUnitCommunicationId: communicationId, activityType: 'ResolutionActivity', details: 'Rows', isComplete: true } });
});
afterAll(async () => {
  await portal?.close();
});

/** JSON carries dates as ISO strings; the contract's date fields take them back as dates. */
function revive(row: Record<string, unknown>, schema: z.ZodObject): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => {
      const field = schema.shape[key];
      const isDate = field instanceof z.ZodDate || (field instanceof z.ZodNullable && field.unwrap() instanceof z.ZodDate);
      return [key, isDate && typeof value === 'string' ? new Date(value) : value];
    }),
  );
}

describe('list rows', () => {
  test('are parts of their contract schema, field by field, in every list route', async () => {
    expect(lists.map((list) => list.url)).toEqual(expect.arrayContaining(['/v1/tenants', '/v1/workunits', '/v1/tokens']));
    const problems: string[] = [];
    for (const { url, row } of lists) {
      const response = await portal.as('admin', { method: 'GET', url: `${url}?$top=25` });
      expect(response.statusCode, url).toBe(200);
      const rows = response.json<{ value: Record<string, unknown>[] }>().value;
      if (rows.length === 0) problems.push(`${url}: no rows to check`);
      for (const value of rows) {
        const parsed = row.partial().strict().safeParse(revive(value, row));
        if (!parsed.success) problems.push(`${url}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Communication } from '@cfs/contracts/communications';
import { DEMO } from '../src/db/seed.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

const URL = '/v1/workunitcommunications';
const stamp = () => Math.random().toString(36).slice(2, 8);
const form = (overrides: Record<string, unknown> = {}) => ({ title: `Mail outage ${stamp()}`, tenantId: DEMO.contoso, serviceManager: 'Oscar Operator', ...overrides });

async function create(user: string, overrides: Record<string, unknown> = {}): Promise<Communication> {
  const response = await portal.as(user, { method: 'PUT', url: URL, payload: form(overrides) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Communication>();
}

async function list(user: string, query = ''): Promise<{ '@odata.count'?: number; value: Communication[] }> {
  const response = await portal.as(user, { method: 'GET', url: `${URL}?$count=true${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('work unit communications: create, read, update (spec 001 §4, §5, §7)', () => {
  it('creates a communication as Investigating by default, read back with its tenant, units and activities', async () => {
    const created = await create('operator', { details: 'Outbound mail queues.', currentImpact: 'Mail delayed' });
    expect(created).toMatchObject({
      status: 'Investigating',
      tenantId: DEMO.contoso,
      tenant: { name: 'Contoso', internalNotificationEmailAddress: 'noc@contoso.example' },
      serviceManager: 'Oscar Operator',
      details: 'Outbound mail queues.',
      currentImpact: 'Mail delayed',
      customerAssistanceRequired: false,
      isOverdue: false,
      isInternalOverdue: false,
      externalReportPath: null,
      createdBy: 'operator',
      userChangedBy: 'operator',
    });
    expect(created.publicWorkUnitCommunicationId).toBeGreaterThan(0);
    const read = await portal.as('operator', { method: 'GET', url: `${URL}/${created.workUnitCommunicationId}` });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<Communication>()).toMatchObject({ title: created.title, workUnits: [], workUnitCommunicationActivities: [] });
  });
});

describe('the communications list (spec 000 §7)', () => {
  it('lists newest first with the tenant, linked units and activities expanded', async () => {
    const page = await list('operator', '&$expand=tenant,workUnitCommunicationActivities,workUnits/tenant');
    expect(page['@odata.count']).toBeGreaterThanOrEqual(3);
    const created = page.value.map((row) => row.created);
    expect(created).toEqual([...created].sort().reverse());
    const outage = page.value.find((row) => row.title === 'Email delivery delayed for Contoso staff');
    expect(outage?.tenant).toEqual({ name: 'Contoso', internalNotificationEmailAddress: 'noc@contoso.example' });
    expect(outage?.workUnits).toHaveLength(1);
    expect(outage?.workUnits?.[0]?.tenant).toEqual({ name: 'Contoso' });
    expect(outage?.workUnitCommunicationActivities?.map((activity) => activity.activityType)).toEqual(['ResolutionActivity', 'TaskActivity']);
  });
});

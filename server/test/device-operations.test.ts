import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableOperationsAnswerSchema, DEVICE_OPERATION_MESSAGES } from '@cfs/contracts/device-operations';
import { OPERATION_TYPES } from '@cfs/contracts/fleet';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { DEMO } from '../src/db/demo-ids.js';
import { createTestPortal, type TestPortal } from './harness.js';
import { expectEntityIdRefusedTo, insertDevice, insertPackageWithOperation } from './fleet-factories.js';

let portal: TestPortal;
let device: { device_id: string };
let otherDevice: { device_id: string };
let fabrikamDevice: { device_id: string };
let metric: { operationId: string; packageId: string };
/** Names of this file's operations end with it: the demo seed has operations of the same kinds. */
const T = Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  portal = await createTestPortal();
  device = await insertDevice(portal, DEMO.contoso, DEMO.contosoProduction, { name: 'web-01' });
  otherDevice = await insertDevice(portal, DEMO.contoso, DEMO.contosoStaging, { name: 'web-02' });
  fabrikamDevice = await insertDevice(portal, DEMO.fabrikam, DEMO.fabrikamProduction, { name: 'plant-01' });
  metric = await insertPackageWithOperation(portal, null, {
    name: 'CFS Agent',
    operationName: `Metric ${T}`,
    frequencies: [1, 2],
    parameterDefinitions: [
      { Name: 'Counter', Description: 'The counter', Required: true, Source: 'PortalEntry', DefaultValue: 'cpu' },
      { Name: 'Password', Required: false, Source: 'SecuredValue' },
    ],
  });
});
afterAll(async () => {
  await portal?.close();
});

type Body = Record<string, unknown>;
const valid = (overrides: Body = {}): Body => ({
  deviceId: device.device_id,
  operationId: metric.operationId,
  label: 'CPU',
  frequencyTypeId: 2,
  interval: '00:05:00',
  parameters: [{ Name: 'Counter', Source: 'PortalEntry', Value: 'cpu' }],
  ...overrides,
});
const create = (body: Body, user = 'operator') =>
  portal.as(user, { method: 'PUT', url: '/v1/deviceOperations', payload: body });
async function created(body: Body = {}) {
  const response = await create(valid(body));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{
    deviceOperationId: string;
    completionToken: string | null;
    operationComplete: boolean;
    interval: string;
    enabled: boolean;
  }>();
}

describe('device operations', () => {
  it('creates a device operation and lists it with its operation, package and latest packet in one answer', async () => {
    const row = await created({ label: 'CPU load', interval: '00:01:30' });
    expect(row.interval).toBe('00:01:30');
    await scoped(portal.db, ALL_TENANTS)
      .insertInto('packet_latest', {
        entity_id: row.deviceOperationId,
        tenant_id: DEMO.contoso,
        timestamp: new Date('2026-01-02T03:04:05Z'),
        message: JSON.stringify({ Value: 42.5 }),
      })
      .execute();
    const list = await portal.as('operator', {
      method: 'GET',
      url: `/v1/deviceOperations?$filter=deviceId eq ${device.device_id} and enabled eq true and isDeleted eq false&$expand=operation($expand=package)&$count=true`,
    });
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json<{
      value: {
        label: string;
        interval: string;
        packetInfo: { value: number; age: string } | null;
        operation: { name: string; frequencyDefinitions: number[]; package: { name: string } };
      }[];
    }>();
    const found = body.value.find((item) => item.label === 'CPU load');
    expect(found?.operation.name).toBe(`Metric ${T}`);
    expect(found?.operation.frequencyDefinitions).toEqual([1, 2]);
    expect(found?.operation.package.name).toBe('CFS Agent');
    expect(found?.packetInfo?.value).toBe(42.5);
    expect(new Date(found?.packetInfo?.age ?? '').toISOString()).toBe('2026-01-02T03:04:05.000Z');
    // The list reads its rows in SQL, one device operation from its row (deviceOperationEntity): they agree.
    const one = await portal.as('operator', { method: 'GET', url: `/v1/deviceOperations/${row.deviceOperationId}` });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual(found);
  });

  it('refuses a missing label with "Label is required" and a missing interval with "Interval is required"', async () => {
    const response = await create(valid({ label: '', interval: undefined }));
    expect(response.statusCode).toBe(400);
    const errors = response.json<{ errors: Record<string, string[]> }>().errors;
    expect(errors.label).toEqual(['Label is required']);
    expect(errors.interval).toEqual(['Interval is required']);
  });

  it('refuses an interval that is not HH:mm:ss or shorter than 30 seconds', async () => {
    const format = await create(valid({ interval: '5 minutes' }));
    expect(format.json<{ errors: Record<string, string[]> }>().errors.interval).toEqual([
      'Interval must be in the format HH:mm:ss',
    ]);
    const short = await create(valid({ interval: '00:00:29' }));
    expect(short.statusCode).toBe(400);
    expect(short.json<{ errors: Record<string, string[]> }>().errors.interval).toEqual([
      'Interval must be at least 30 seconds.',
    ]);
    await created({ interval: '00:00:30', label: 'Thirty' });
  });

  it('refuses a frequency the operation does not allow, a missing required parameter and an unknown source', async () => {
    const frequency = await create(valid({ frequencyTypeId: 3 }));
    expect(frequency.statusCode).toBe(400);
    expect(frequency.json<{ message: string; errors: Record<string, string[]> }>().errors.frequencyTypeId).toEqual([
      'The operation does not allow this frequency.',
    ]);
    const parameter = await create(valid({ parameters: [] }));
    expect(parameter.json<{ message: string; errors: Record<string, string[]> }>()).toMatchObject({
      message: 'Counter is required.',
      errors: { parameters: ['Counter is required.'] },
    });
    const source = await create(valid({ parameters: [{ Name: 'Counter', Source: 'Clipboard', Value: 'x' }] }));
    expect(source.statusCode).toBe(400);
    expect(JSON.stringify(source.json())).toContain('Please choose a source.');
  });

  it('stores a SecuredValue as the name of a tenant secret that must exist, and never answers the secret', async () => {
    const missing = await create(
      valid({
        parameters: [
          { Name: 'Counter', Source: 'PortalEntry', Value: 'cpu' },
          { Name: 'Password', Source: 'SecuredValue', Value: 'db.password' },
        ],
      }),
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ errors: Record<string, string[]> }>().errors.parameters).toEqual([
      "The secret 'db.password' does not exist in the device's tenant.",
    ]);
    // A secret of that name in another tenant does not count.
    await portal.as('admin', {
      method: 'PUT',
      url: `/v1/tenants/${DEMO.fabrikam}/secrets`,
      payload: { name: 'db.password', value: 'Fabrikam-Secret-1' },
    });
    expect(
      (
        await create(
          valid({
            parameters: [
              { Name: 'Counter', Source: 'PortalEntry', Value: 'cpu' },
              { Name: 'Password', Source: 'SecuredValue', Value: 'db.password' },
            ],
          }),
        )
      ).statusCode,
    ).toBe(400);

    const secret = await portal.as('admin', {
      method: 'PUT',
      url: `/v1/tenants/${DEMO.contoso}/secrets`,
      payload: { name: 'db.password', value: 'Contoso-Secret-9' },
    });
    expect(secret.statusCode).toBe(200);
    const row = await created({
      label: 'Secured',
      parameters: [
        { Name: 'Counter', Source: 'PortalEntry', Value: 'cpu' },
        { Name: 'Password', Source: 'SecuredValue', Value: 'db.password' },
      ],
    });
    const one = await portal.as('operator', { method: 'GET', url: `/v1/deviceOperations/${row.deviceOperationId}` });
    const list = await portal.as('operator', {
      method: 'GET',
      url: `/v1/deviceOperations?$filter=deviceId eq ${device.device_id}&$expand=operation`,
    });
    for (const answer of [one.body, list.body]) {
      expect(answer).toContain('db.password');
      expect(answer).not.toContain('Contoso-Secret-9');
    }
  });

  it('enqueues and dequeues an OnDemand operation only', async () => {
    const onDemand = await created({ label: 'Run now', frequencyTypeId: 1 });
    expect(onDemand.completionToken).toBeNull();
    const enqueued = await portal.as('operator', {
      method: 'POST',
      url: `/v1/deviceOperations/${onDemand.deviceOperationId}/enqueueOnDemand`,
    });
    expect(enqueued.statusCode).toBe(200);
    const queued = enqueued.json<{ completionToken: string | null; operationComplete: boolean }>();
    expect(queued.completionToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(queued.operationComplete).toBe(false);
    const again = await portal.as('operator', {
      method: 'POST',
      url: `/v1/deviceOperations/${onDemand.deviceOperationId}/enqueueOnDemand`,
    });
    expect(again.json<{ completionToken: string }>().completionToken).not.toBe(queued.completionToken);
    const dequeued = await portal.as('operator', {
      method: 'POST',
      url: `/v1/deviceOperations/${onDemand.deviceOperationId}/dequeueOnDemand`,
    });
    expect(dequeued.json<{ completionToken: string | null }>().completionToken).toBeNull();

    const recurring = await created({ label: 'Every five', frequencyTypeId: 2 });
    for (const action of ['enqueueOnDemand', 'dequeueOnDemand']) {
      const refused = await portal.as('operator', {
        method: 'POST',
        url: `/v1/deviceOperations/${recurring.deviceOperationId}/${action}`,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe('Only On Demand operations can be queued.');
    }
  });

  it('disables through an update, and deletes softly (gone from the answers, kept in the table)', async () => {
    const row = await created({ label: 'To disable' });
    const disabled = await portal.as('operator', {
      method: 'POST',
      url: `/v1/deviceOperations/${row.deviceOperationId}`,
      payload: valid({ label: 'To disable', enabled: false }),
    });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json<{ enabled: boolean }>().enabled).toBe(false);
    const enabledOnly = await portal.as('operator', {
      method: 'GET',
      url: `/v1/deviceOperations?$filter=deviceId eq ${device.device_id} and enabled eq true and isDeleted eq false&$top=100`,
    });
    expect(
      enabledOnly.json<{ value: { deviceOperationId: string }[] }>().value.map((item) => item.deviceOperationId),
    ).not.toContain(row.deviceOperationId);

    const moved = await portal.as('operator', {
      method: 'POST',
      url: `/v1/deviceOperations/${row.deviceOperationId}`,
      payload: valid({ deviceId: otherDevice.device_id }),
    });
    expect(moved.statusCode).toBe(400);

    expect(
      (await portal.as('operator', { method: 'DELETE', url: `/v1/deviceOperations/${row.deviceOperationId}` }))
        .statusCode,
    ).toBe(204);
    expect(
      (await portal.as('operator', { method: 'GET', url: `/v1/deviceOperations/${row.deviceOperationId}` })).statusCode,
    ).toBe(404);
    const all = await portal.as('operator', {
      method: 'GET',
      url: `/v1/deviceOperations?$filter=deviceId eq ${device.device_id} and isDeleted eq false&$top=100`,
    });
    expect(
      all.json<{ value: { deviceOperationId: string }[] }>().value.map((item) => item.deviceOperationId),
    ).not.toContain(row.deviceOperationId);
    const kept = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('device_operation')
      .select('is_deleted')
      .where('device_operation_id', '=', row.deviceOperationId)
      .executeTakeFirst();
    expect(kept?.is_deleted).toBe(true);
  });

  it('answers the operation logs newest first', async () => {
    const row = await created({ label: 'Logged' });
    await scoped(portal.db, ALL_TENANTS)
      .insertInto('operation_log', [
        {
          tenant_id: DEMO.contoso,
          device_operation_id: row.deviceOperationId,
          created: new Date('2026-01-01T00:00:00Z'),
          entry_type: 'Information',
          detail: 'first',
        },
        {
          tenant_id: DEMO.contoso,
          device_operation_id: row.deviceOperationId,
          created: new Date('2026-01-02T00:00:00Z'),
          entry_type: 'Error',
          detail: 'second',
        },
      ])
      .execute();
    const logs = await portal.as('operator', {
      method: 'GET',
      url: `/v1/deviceOperations/${row.deviceOperationId}/logs`,
    });
    expect(logs.statusCode).toBe(200);
    expect(logs.json<{ detail: string }[]>().map((entry) => entry.detail)).toEqual(['second', 'first']);
  });

  it("keeps another tenant's device operations, logs and devices out of reach", async () => {
    const row = await created({ label: 'Contoso only' });
    const id = row.deviceOperationId;
    expect((await portal.as('operator2', { method: 'GET', url: `/v1/deviceOperations/${id}` })).statusCode).toBe(404);
    expect((await portal.as('operator2', { method: 'GET', url: `/v1/deviceOperations/${id}/logs` })).statusCode).toBe(
      404,
    );
    expect(
      (await portal.as('operator2', { method: 'POST', url: `/v1/deviceOperations/${id}`, payload: valid() }))
        .statusCode,
    ).toBe(404);
    expect(
      (await portal.as('operator2', { method: 'POST', url: `/v1/deviceOperations/${id}/enqueueOnDemand` })).statusCode,
    ).toBe(404);
    expect((await portal.as('operator2', { method: 'DELETE', url: `/v1/deviceOperations/${id}` })).statusCode).toBe(
      404,
    );
    const list = await portal.as('operator2', {
      method: 'GET',
      url: `/v1/deviceOperations?$filter=deviceId eq ${device.device_id}`,
    });
    expect(list.json<{ value: unknown[] }>().value).toEqual([]);
    const foreign = await create(valid(), 'operator2');
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<{ errors: Record<string, string[]> }>().errors.deviceId).toEqual(['The device was not found.']);
    // A Contoso operator cannot attach a Fabrikam package's operation either.
    const fabrikamOperation = await insertPackageWithOperation(portal, DEMO.fabrikam, { name: 'Fabrikam only' });
    const borrowed = await create(valid({ operationId: fabrikamOperation.operationId }));
    expect(borrowed.json<{ errors: Record<string, string[]> }>().errors.operationId).toEqual([
      'The operation is not available to this device.',
    ]);
    expect((await portal.as('enduser', { method: 'GET', url: `/v1/deviceOperations` })).statusCode).toBe(403);
    expect((await create(valid(), 'enduser')).statusCode).toBe(403);
  });

  it('clones chosen operations to another device of the tenant, and refuses a missing target, the source itself, another tenant and no operations', async () => {
    const a = await created({ label: 'Clone A' });
    const b = await created({ label: 'Clone B', frequencyTypeId: 1 });
    const clone = (body: Body, user = 'operator') =>
      portal.as(user, { method: 'POST', url: '/v1/deviceOperations/clone', payload: body });
    const ids = `${a.deviceOperationId},${b.deviceOperationId}`;
    const errorsOf = async (body: Body) => (await clone(body)).json<{ errors: Record<string, string[]> }>().errors;
    expect((await errorsOf({ fromDeviceId: device.device_id, deviceOperationIdsToClone: ids })).toDeviceId).toEqual([
      'Please choose a target device.',
    ]);
    expect(
      (await errorsOf({ fromDeviceId: device.device_id, toDeviceId: device.device_id, deviceOperationIdsToClone: ids }))
        .toDeviceId,
    ).toEqual(['The target device must not be the source device.']);
    expect(
      (
        await errorsOf({
          fromDeviceId: device.device_id,
          toDeviceId: otherDevice.device_id,
          deviceOperationIdsToClone: '',
        })
      ).deviceOperationIdsToClone,
    ).toEqual(['Please choose at least one operation.']);
    const admin = await portal.as('admin', {
      method: 'POST',
      url: '/v1/deviceOperations/clone',
      payload: { fromDeviceId: device.device_id, toDeviceId: fabrikamDevice.device_id, deviceOperationIdsToClone: ids },
    });
    expect(admin.json<{ errors: Record<string, string[]> }>().errors.toDeviceId).toEqual([
      'The target device must be in the same tenant as the source device.',
    ]);
    expect(
      (
        await errorsOf({
          fromDeviceId: device.device_id,
          toDeviceId: fabrikamDevice.device_id,
          deviceOperationIdsToClone: ids,
        })
      ).toDeviceId,
    ).toEqual(['The device was not found.']);

    const done = await clone({
      fromDeviceId: device.device_id,
      toDeviceId: otherDevice.device_id,
      deviceOperationIdsToClone: ids,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<{ message: string; deviceOperationIds: string[] }>()).toMatchObject({
      message: 'Device Operations Cloned Successfully.',
    });
    const copies = await portal.as('operator', {
      method: 'GET',
      url: `/v1/deviceOperations?$filter=deviceId eq ${otherDevice.device_id}&$orderby=label`,
    });
    expect(
      copies
        .json<{ value: { label: string; frequencyTypeId: number }[] }>()
        .value.map((item) => [item.label, item.frequencyTypeId]),
    ).toEqual([
      ['Clone A', 2],
      ['Clone B', 1],
    ]);
  });

  it("makes a created or cloned device operation its tenant's entity: another tenant can neither report for it nor take its id for a block", async () => {
    const made = await created({ label: 'Owned' });
    const cloned = await portal.as('operator', {
      method: 'POST',
      url: '/v1/deviceOperations/clone',
      payload: {
        fromDeviceId: device.device_id,
        toDeviceId: otherDevice.device_id,
        deviceOperationIdsToClone: made.deviceOperationId,
      },
    });
    expect(cloned.statusCode, cloned.body).toBe(200);
    const [copy] = cloned.json<{ deviceOperationIds: string[] }>().deviceOperationIds;
    for (const entityId of [made.deviceOperationId, copy!]) {
      await expectEntityIdRefusedTo(portal, entityId, {
        user: 'operator2',
        tenantId: DEMO.fabrikam,
        subscriptionId: DEMO.fabrikamProduction,
      });
    }
    // Its own tenant may show it as a block.
    expect(
      (
        await portal.as('operator', {
          method: 'PUT',
          url: '/v1/blocks',
          payload: { blockId: copy, subscriptionId: DEMO.contosoProduction, name: 'CPU tile', blockTypeId: 1 },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('offers the operations of packages the tenant can use that support the operating system, with the count before filtering', async () => {
    await insertPackageWithOperation(portal, DEMO.contoso, {
      name: 'Contoso scripts',
      operationName: `Availability ${T}`,
      operatingSystemIds: [1],
    });
    await insertPackageWithOperation(portal, null, {
      name: 'Linux tools',
      operationName: `LinuxOnly ${T}`,
      operatingSystemIds: [4],
    });
    await insertPackageWithOperation(portal, DEMO.fabrikam, {
      name: 'Fabrikam scripts',
      operationName: `FabrikamOnly ${T}`,
      operatingSystemIds: [1],
    });
    const url = (query: string) =>
      `/v1/operations/GetAvailableOperationsForDevice(tenantId=${DEMO.contoso},operatingSystemId=1)?$count=true&$top=100${query}`;
    const mine = (rows: { name: string }[]) => rows.map((item) => item.name).filter((name) => name.endsWith(T));
    const all = await portal.as('operator', { method: 'GET', url: url('') });
    expect(all.statusCode, all.body).toBe(200);
    const body = all.json<{ '@odata.count': number; value: { name: string; totalBeforeFiltering: number }[] }>();
    expect(mine(body.value)).toEqual([`Availability ${T}`, `Metric ${T}`]);
    const filtered = await portal.as('operator', {
      method: 'GET',
      url: url(`&$filter=name eq 'Metric ${T}'&$expand=package`),
    });
    const rows = filtered.json<{ value: { name: string; totalBeforeFiltering: number; package: { name: string } }[] }>()
      .value;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: `Metric ${T}`,
      totalBeforeFiltering: body['@odata.count'],
      package: { name: 'CFS Agent' },
    });
    const linux = await portal.as('operator', {
      method: 'GET',
      url: `/v1/operations/GetAvailableOperationsForDevice(tenantId=${DEMO.contoso},operatingSystemId=4)?$top=100`,
    });
    expect(mine(linux.json<{ value: { name: string }[] }>().value)).toEqual([`LinuxOnly ${T}`, `Metric ${T}`]);
    expect((await portal.as('operator2', { method: 'GET', url: url('') })).statusCode).toBe(404);
    // The answer is what the document says, field for field (the schema keeps no field it does not name).
    const selected = await portal.as('operator', { method: 'GET', url: url('&$select=name,operationId') });
    expect(selected.statusCode, selected.body).toBe(200);
    for (const answer of [all.json(), filtered.json(), linux.json(), selected.json()])
      expect(availableOperationsAnswerSchema.parse(answer)).toEqual(answer);
  });
});

describe('operations that read files on a device', () => {
  it('need Devices.HostAccess: an operator may not set up, change, run or clone a Read File operation, nor make a package operation one; an administrator may', async () => {
    const readFile = await insertPackageWithOperation(portal, null, {
      operationName: `Read File ${T}`,
      frequencies: [1, 2],
      parameterDefinitions: [{ Name: 'Path', Required: true, Source: 'PortalEntry' }],
      operationTypeId: OPERATION_TYPES.LocalFileRead,
    });
    const body = valid({
      operationId: readFile.operationId,
      label: 'Keys',
      frequencyTypeId: 1,
      parameters: [{ Name: 'Path', Source: 'PortalEntry', Value: '/etc/shadow' }],
    });
    const refused = (response: { statusCode: number; json: () => unknown }) => {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: DEVICE_OPERATION_MESSAGES.hostAccessRequired });
    };

    refused(await create(body, 'operator'));
    const made = await create(body, 'admin');
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json<{ deviceOperationId: string }>().deviceOperationId;
    refused(
      await portal.as('operator', {
        method: 'POST',
        url: `/v1/deviceOperations/${id}`,
        payload: { ...body, label: 'Other keys' },
      }),
    );
    expect(
      (
        await portal.as('admin', {
          method: 'POST',
          url: `/v1/deviceOperations/${id}`,
          payload: { ...body, label: 'Other keys' },
        })
      ).statusCode,
    ).toBe(200);
    refused(await portal.as('operator', { method: 'POST', url: `/v1/deviceOperations/${id}/enqueueOnDemand` }));
    expect(
      (await portal.as('admin', { method: 'POST', url: `/v1/deviceOperations/${id}/enqueueOnDemand` })).statusCode,
    ).toBe(200);
    const clone = { fromDeviceId: device.device_id, toDeviceId: otherDevice.device_id, deviceOperationIdsToClone: id };
    refused(await portal.as('operator', { method: 'POST', url: '/v1/deviceOperations/clone', payload: clone }));
    expect(
      (await portal.as('admin', { method: 'POST', url: '/v1/deviceOperations/clone', payload: clone })).statusCode,
    ).toBe(200);
    // What the operator was refused left nothing behind.
    const labels = await portal.db
      .selectFrom('device_operation')
      .select('label')
      .where('operation_id', '=', readFile.operationId)
      .orderBy('label')
      .execute();
    expect(labels).toEqual([{ label: 'Other keys' }, { label: 'Other keys' }]);

    // A package operation of the tenant's: an operator keeps editing it, but may not make it a Read File.
    const own = await insertPackageWithOperation(portal, DEMO.contoso, { operationName: `Counter ${T}` });
    const operation = (operationType: number) => ({
      name: `Counter ${T}`,
      frequencyDefinitions: [2],
      defaultInterval: '00:05:00',
      operationType,
      operationResultTypeId: 2,
    });
    const edited = await portal.as('operator', {
      method: 'POST',
      url: `/v1/packages/${own.packageId}/operations/${own.operationId}`,
      payload: operation(OPERATION_TYPES.Metric),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    refused(
      await portal.as('operator', {
        method: 'POST',
        url: `/v1/packages/${own.packageId}/operations/${own.operationId}`,
        payload: operation(OPERATION_TYPES.LocalFileRead),
      }),
    );
    refused(
      await portal.as('operator', {
        method: 'PUT',
        url: `/v1/packages/${own.packageId}/operations`,
        payload: operation(OPERATION_TYPES.LocalFileRead),
      }),
    );
    expect(
      (
        await portal.as('admin', {
          method: 'PUT',
          url: `/v1/packages/${own.packageId}/operations`,
          payload: operation(OPERATION_TYPES.LocalFileRead),
        })
      ).statusCode,
    ).toBe(200);
  });
});

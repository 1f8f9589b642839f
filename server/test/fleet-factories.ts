import { createHash, randomBytes } from 'node:crypto';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { recordCreatedEntities } from '../src/engines/ingestion/entity-owners.js';
import { expect } from 'vitest';
import { createTokenAs } from './factories.js';
import type { TestPortal } from './harness.js';

/**
 * Fleet rows for API tests whose areas (devices, packages, the agent's enrolment) are not the
 * subject of the test: written straight into the tables, as those areas would leave them.
 */
export async function insertDevice(
  portal: Pick<TestPortal, 'db'>,
  tenantId: string,
  subscriptionId: string,
  body: { name?: string; operatingSystemId?: number } = {},
) {
  return portal.db.transaction().execute(async (trx) => {
    const device = await scoped(trx, ALL_TENANTS)
      .insertInto('device', {
        tenant_id: tenantId,
        subscription_id: subscriptionId,
        name: body.name ?? `Device ${randomBytes(3).toString('hex')}`,
        operating_system_id: body.operatingSystemId ?? 1,
      })
      .returning(['device_id', 'tenant_id'])
      .executeTakeFirstOrThrow();
    await recordCreatedEntities(trx, tenantId, [device.device_id]);
    return device;
  });
}

export async function insertPackageWithOperation(
  portal: Pick<TestPortal, 'db'>,
  tenantId: string | null,
  body: {
    name?: string;
    operatingSystemIds?: number[];
    frequencies?: number[];
    parameterDefinitions?: unknown[];
    operationName?: string;
    operationTypeId?: number;
  } = {},
) {
  const pkg = await scoped(portal.db, ALL_TENANTS)
    .insertInto('package', {
      tenant_id: tenantId,
      name: body.name ?? `Package ${randomBytes(3).toString('hex')}`,
      package_type_id: 1,
      operating_system_ids: body.operatingSystemIds ?? [1, 4],
    })
    .returning('package_id')
    .executeTakeFirstOrThrow();
  const operation = await portal.db
    .insertInto('operation')
    .values({
      package_id: pkg.package_id,
      name: body.operationName ?? 'Metric',
      frequency_type_ids: body.frequencies ?? [1, 2],
      parameter_definitions: JSON.stringify(body.parameterDefinitions ?? []),
      operation_type_id: body.operationTypeId ?? 6,
      operation_result_type_id: 2,
    })
    .returning('operation_id')
    .executeTakeFirstOrThrow();
  return { packageId: pkg.package_id, operationId: operation.operation_id };
}

export async function insertPendingDevice(
  portal: TestPortal,
  tenantId: string,
  body: { machineName?: string; operatingSystem?: string; lastPing?: Date } = {},
) {
  return scoped(portal.db, ALL_TENANTS)
    .insertInto('pending_device', {
      tenant_id: tenantId,
      machine_name: body.machineName ?? `HOST-${randomBytes(3).toString('hex')}`,
      operating_system: body.operatingSystem ?? 'Windows 11',
      architecture: 'X64',
      ip_address: '10.0.0.5',
      agent_key_hash: createHash('sha256').update(randomBytes(16)).digest('hex'),
      last_ping: body.lastPing ?? new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Checks that an entity belongs to its own tenant only: another tenant (`other`) can neither
 * report a packet for it with its tenant API token (403) nor take its id for a block of its own
 * (400, with the spec's message).
 */
export async function expectEntityIdRefusedTo(
  portal: TestPortal,
  entityId: string,
  other: { user: string; tenantId: string; subscriptionId: string },
): Promise<void> {
  const token = (await createTokenAs(portal, 'admin', other.tenantId)).generatedToken;
  const packet = await portal.app.inject({
    method: 'POST',
    url: '/v1/packets',
    payload: { entityId, timestamp: new Date().toISOString(), message: { Value: 1 } },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(packet.statusCode).toBe(403);
  const block = await portal.as(other.user, {
    method: 'PUT',
    url: '/v1/blocks',
    payload: { blockId: entityId, subscriptionId: other.subscriptionId, name: 'Taken', blockTypeId: 1 },
  });
  expect(block.statusCode).toBe(400);
  expect(block.json<{ errors: Record<string, string[]> }>().errors.blockId).toEqual([
    'This Block ID cannot be used; please enter another.',
  ]);
}

import { ok } from '@cfs/client';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { createCategoryAs, createTokenAs } from './factories.js';
import type { TestPortal } from './harness.js';

/**
 * At least one row of every list of a tenant the demo seed leaves empty or thin: a device with an
 * operation and an installed package version, a packet, a rule with a match, its action's run and a silence,
 * an e-mail, a protocol with a step, an HTTP action, a communication with an activity. Each is
 * written as its area (or its engine) would write it; what goes through the API goes through the
 * typed client (`@cfs/client`), and fails the setup unless it succeeds.
 */
export async function createRowsOfEveryList(
  portal: TestPortal,
  tenantId: string,
  subscriptionId: string,
): Promise<void> {
  const admin = await portal.client('admin');
  const token = await createTokenAs(portal, 'admin', tenantId);
  const category = await createCategoryAs(portal, 'admin', tenantId);
  await ok(
    admin.PUT('/v1/workunitsubcategories', {
      body: { workUnitCategoryId: category.workUnitCategoryId, name: 'Routers', isEnabled: true },
    }),
  );
  // A device operation (devices and packages are written as their areas leave them).
  const device = await portal.db
    .insertInto('device')
    .values({ tenant_id: tenantId, subscription_id: subscriptionId, name: 'rows-01' })
    .returning('device_id')
    .executeTakeFirstOrThrow();
  // Shared by every tenant: named apart so that each call makes its own.
  const pkg = await portal.db
    .insertInto('package')
    .values({ name: `Rows ${Math.random().toString(36).slice(2, 8)}`, package_type_id: 1, operating_system_ids: [1] })
    .returning('package_id')
    .executeTakeFirstOrThrow();
  // An installed version of it (a row of the version report).
  const version = await portal.db
    .insertInto('package_version')
    .values({
      package_id: pkg.package_id,
      version: '1.0.0',
      label: 'Rows',
      package_version_status_id: 1,
      file_sha256: 'a'.repeat(64),
      file_name: 'rows.zip',
      file_size: 1,
    })
    .returning('package_version_id')
    .executeTakeFirstOrThrow();
  await portal.db
    .insertInto('device_installation')
    .values({
      device_id: device.device_id,
      package_id: pkg.package_id,
      tenant_id: tenantId,
      package_version_id: version.package_version_id,
      installed_package_version_id: version.package_version_id,
      install_status_id: 2,
    })
    .execute();
  // A piece of software its agent reported (a row of the fleet's software).
  await portal.db
    .insertInto('device_software')
    .values({ device_id: device.device_id, tenant_id: tenantId, name: 'openssl', version: '3.0.13', publisher: null })
    .execute();
  const operation = await portal.db
    .insertInto('operation')
    .values({
      package_id: pkg.package_id,
      name: 'Rows',
      frequency_type_ids: [2],
      operation_type_id: 6,
      operation_result_type_id: 2,
    })
    .returning('operation_id')
    .executeTakeFirstOrThrow();
  const packet = {
    entityId: device.device_id,
    timestamp: new Date().toISOString(),
    message: { Value: 12.5, Metrics: { CpuPercent: 12.5, MemoryPercent: 40 } },
  };
  // Reported as the tenant's agent would, with the tenant's token: through `inject`, as the API's
  // document does not describe the packet's body (the route reads it itself), so the client has no
  // body to send.
  const reported = await portal.app.inject({
    method: 'POST',
    url: '/v1/packets',
    headers: { authorization: `Bearer ${token.generatedToken}` },
    payload: packet,
  });
  if (reported.statusCode !== 200)
    throw new Error(`POST /v1/packets answered ${reported.statusCode}: ${reported.body}`);
  // A rule match (the rule engine's own row, written here as it would).
  const rule = await portal.db
    .insertInto('rule')
    .values({
      tenant_id: tenantId,
      name: 'Rows',
      rule_type_id: 1,
      match_lifetime_seconds: 300,
      conditions: JSON.stringify([{ Type: 0, LeftOperand: 1, Operator: 13 }]),
    })
    .returning('rule_id')
    .executeTakeFirstOrThrow();
  const match = await portal.db
    .insertInto('rule_match')
    .values({
      rule_id: rule.rule_id,
      tenant_id: tenantId,
      subject_id: device.device_id,
      label: 'rows-01',
      first_match: new Date(),
      last_match: new Date(),
      expires: new Date(Date.now() + 300_000),
      rule_packet: JSON.stringify(packet),
      reason: JSON.stringify({ conditions: [], timestamp: null }),
    })
    .returning('rule_match_id')
    .executeTakeFirstOrThrow();
  // A silence of the rule over the device, for two hours (the engine's row).
  await portal.db
    .insertInto('rule_silence')
    .values({
      tenant_id: tenantId,
      rule_id: rule.rule_id,
      subject_id: device.device_id,
      label: 'rows-01',
      starts: new Date(),
      ends: new Date(Date.now() + 7_200_000),
      note: 'Rows',
      created_by: 'admin',
    })
    .execute();
  // What its action did (the engine's action history row).
  await portal.db
    .insertInto('action_history')
    .values({
      tenant_id: tenantId,
      action_definition_id: BUILT_IN_ACTIONS.setColor.id,
      result_status_id: 1,
      input_parameters: '{"Color":"Red"}',
      result_detail: 'Colour set to Red',
      correlation_id: match.rule_match_id,
      reference_id: device.device_id,
      rule_match_id: match.rule_match_id,
    })
    .execute();
  await portal.db
    .insertInto('email_outbox')
    .values({
      tenant_id: tenantId,
      template: 'Simple',
      to_addresses: 'noc@contoso.example',
      subject: 'Rows',
      body: '<p>Rows</p>',
      transport: 'outbox',
    })
    .execute();
  // A protocol with one step (protocols and protocolActions).
  const protocol = await ok(
    admin.PUT('/v1/protocols', {
      body: { name: 'Rows', tenantId: tenantId, description: 'Rows', manualActions: 'Call the owner' },
    }),
  );
  await ok(
    admin.PUT('/v1/protocolActions', {
      body: {
        protocolId: protocol.protocolId,
        actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
        workUnitEventTypeId: 1,
        parameters: { Template: 'Simple' },
        summary: 'Rows',
      },
    }),
  );
  // A user-made HTTP action beside the built-ins (its endpoint, method, headers and body set).
  await portal.db
    .insertInto('action_definition')
    .values({
      tenant_id: tenantId,
      name: 'Rows hook',
      action_definition_type_id: 4,
      input_parameters: 'Host',
      endpoint_url: 'https://8.8.8.8/{Host}',
      http_method: 'POST',
      headers: 'X-Rows: 1',
      body: '{}',
    })
    .execute();
  await ok(
    admin.PUT('/v1/deviceOperations', {
      body: {
        deviceId: device.device_id,
        operationId: operation.operation_id,
        label: 'Rows',
        frequencyTypeId: 2,
        interval: '00:05:00',
      },
    }),
  );
  await ok(
    admin.PUT('/v1/rules', {
      body: {
        name: 'Rows',
        ruleTypeId: 1,
        tenantId: tenantId,
        matchLifetime: '00:05:00',
        timeConditions: JSON.stringify({ TimeZoneId: 'UTC', DaysOfWeek: [1] }),
        conditions: [{ LeftOperand: 1, Operator: 1, RightOperand: 'x' }],
      },
    }),
  );
  // A work unit communication with a past step (workunitcommunications and their activities).
  const communication = await ok(
    admin.PUT('/v1/workunitcommunications', {
      body: { title: 'Rows', tenantId: tenantId, serviceManager: 'Rows', nextUpdate: new Date().toISOString() },
    }),
  );
  await ok(
    admin.PUT('/v1/workunitcommunicationactivities', {
      body: {
        workUnitCommunicationId: communication.workUnitCommunicationId,
        activityType: 'ResolutionActivity',
        details: 'Rows',
        isComplete: true,
      },
    }),
  );
}

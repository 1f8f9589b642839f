import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FREQUENCY_TYPES, OPERATION_TYPES, PACKAGE_TYPES } from '@cfs/contracts/fleet';
import type { EnrolmentResult } from '@cfs/contracts/agent';
import { Agent } from '../../agent/src/agent.js';
import { DataFolder, saveIdentity } from '../../agent/src/data-folder.js';
import { hashCredential } from '../../server/src/auth/machine-callers.js';
import type { BenchPortal } from './bench-portal.js';
import { agentsTenant, type RecordFigure } from './fleet.js';
import { median } from './front-end.js';

/**
 * Operation enqueued → the agent has run it: an on-demand Metric operation queued through the API
 * (`enqueueOnDemand`, as the devices screen's Run does) until the agent has completed it with its
 * token, for a real agent (the agent's own code, in this process) that holds its configuration call
 * open (`Prefer: wait`), against the same agent polling every 30 s as it did before, in turns. Each
 * agent has a device of its own, enrolled through the agent API.
 */
export async function agentReach(
  portal: BenchPortal,
  record: RecordFigure,
  options: { rounds: number },
): Promise<void> {
  const { tenant, token } = await agentsTenant(portal, 'Agent reach');
  const admin = await portal.token('admin');
  const call = async (method: 'POST' | 'PUT', url: string, payload?: object, bearer = admin) => {
    const answer = await portal.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${bearer}` },
      ...(payload ? { payload } : {}),
    });
    if (answer.statusCode !== 200) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
    return answer.json<Record<string, unknown>>();
  };
  const subscription = await call('PUT', '/v1/subscriptions', { tenantId: tenant, name: 'Agent reach' });
  const db = portal.runtime.db;
  const pkg = await db
    .insertInto('package')
    .values({ name: `Agent reach ${randomUUID().slice(0, 6)}`, package_type_id: PACKAGE_TYPES.AgentLogic })
    .returning('package_id')
    .executeTakeFirstOrThrow();
  const operation = await db
    .insertInto('operation')
    .values({
      package_id: pkg.package_id,
      name: 'Metric',
      frequency_type_ids: [FREQUENCY_TYPES.OnDemand],
      operation_type_id: OPERATION_TYPES.Metric,
      operation_result_type_id: 2,
    })
    .returning('operation_id')
    .executeTakeFirstOrThrow();

  /** A device enrolled through the agent API (promoted as an administrator would), and its agent's folder. */
  const enrolled = async (name: string) => {
    const agentKey = randomBytes(32).toString('base64url');
    const enrol = () =>
      call(
        'POST',
        '/v1/agent/enrol',
        { agentKey, machineName: name, operatingSystem: 'linux', architecture: 'x64', agentVersion: '0.1.0' },
        token,
      );
    await enrol();
    const pending = await db
      .selectFrom('pending_device')
      .selectAll()
      .where('agent_key_hash', '=', hashCredential(agentKey))
      .executeTakeFirstOrThrow();
    const device = await db
      .insertInto('device')
      .values({
        tenant_id: tenant,
        subscription_id: String(subscription.subscriptionId),
        name,
        machine_name: name,
        agent_key_hash: pending.agent_key_hash,
        token_grant_id: pending.token_grant_id,
        // The heartbeat stays out of the way of the figure.
        heartbeat_interval: 3600,
      })
      .returning('device_id')
      .executeTakeFirstOrThrow();
    await db.deleteFrom('pending_device').where('pending_device_id', '=', pending.pending_device_id).execute();
    const result = (await enrol()) as unknown as EnrolmentResult;
    if (result.status !== 'enrolled') throw new Error('The bench device was not enrolled');
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-bench-agent-'));
    saveIdentity(new DataFolder(dataDir), {
      agentKey,
      deviceId: device.device_id,
      credential: result.credential,
      portalUrl: portal.address,
    });
    const deviceOperation = await db
      .insertInto('device_operation')
      .values({
        tenant_id: tenant,
        device_id: device.device_id,
        operation_id: operation.operation_id,
        label: 'Run now',
        frequency_type_id: FREQUENCY_TYPES.OnDemand,
        interval_seconds: 0,
        parameters: JSON.stringify([]),
      })
      .returning('device_operation_id')
      .executeTakeFirstOrThrow();
    return { dataDir, deviceOperationId: deviceOperation.device_operation_id };
  };

  const ways = [
    { name: 'held', hold: true, ...(await enrolled('bench-held')) },
    { name: 'poll', hold: false, ...(await enrolled('bench-poll')) },
  ];
  const agents = ways.map(
    (way) =>
      new Agent({ server: portal.address, token, dataDir: way.dataDir, quiet: true, holdConfiguration: way.hold }),
  );
  const running = agents.map((agent) => agent.run());
  const done = (deviceOperationId: string) =>
    db
      .selectFrom('device_operation')
      .select('operation_complete')
      .where('device_operation_id', '=', deviceOperationId)
      .executeTakeFirstOrThrow();
  /** Queues the way's operation and waits until its agent has completed it (ms). */
  const reach = async (way: (typeof ways)[number]): Promise<number> => {
    const started = performance.now();
    await call('POST', `/v1/deviceOperations/${way.deviceOperationId}/enqueueOnDemand`);
    while (!(await done(way.deviceOperationId)).operation_complete) {
      if (performance.now() - started > 120_000) throw new Error(`The ${way.name} agent did not run its operation`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return performance.now() - started;
  };
  try {
    // Both agents have fetched their first configuration before the first round.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const times: Record<string, number[]> = { held: [], poll: [] };
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? ways : [...ways].reverse();
      for (const way of order) times[way.name]!.push(await reach(way));
    }
    record({
      name: `operation enqueued → the agent has run it (median of ${options.rounds})`,
      value: median(times.held!),
      unit: 'ms',
      baselineName: 'the same agent polling its configuration every 30 s',
      baseline: median(times.poll!),
    });
  } finally {
    for (const agent of agents) agent.stop();
    await Promise.all(running);
    await Promise.all(ways.map((way) => fs.rm(way.dataDir, { recursive: true, force: true })));
  }
}

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { EnrolmentResult } from '@cfs/contracts/agent';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import type { TestPortal } from './harness.js';
import { repositoryRoot, until } from './processes.js';

/**
 * An agent enrolled the whole way through the API, as in production: it enrols with a tenant API
 * token and a key of its own (pending), an administrator promotes it, and its next enrolment call
 * hands it its device credential. Over HTTP, so it serves in-process listeners and portal processes alike.
 */
export async function enrolDeviceOverHttp(
  origin: string,
  options: { adminToken: string; apiToken: string; subscriptionId: string; machineName?: string },
) {
  const agentKey = randomBytes(32).toString('base64url');
  const machineName = options.machineName ?? `host-${randomBytes(3).toString('hex')}`;
  const enrol = async () => {
    const response = await fetch(`${origin}/v1/agent/enrol`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.apiToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        agentKey,
        machineName,
        operatingSystem: 'linux',
        architecture: 'x64',
        agentVersion: '0.1.0',
      }),
    });
    if (response.status !== 200) throw new Error(`enrol: ${response.status} ${await response.text()}`);
    return (await response.json()) as EnrolmentResult;
  };
  const pending = await enrol();
  if (pending.status !== 'pending') throw new Error(`enrol: expected pending, got ${pending.status}`);
  const admin = { authorization: `Bearer ${options.adminToken}`, 'content-type': 'application/json' };
  const promoted = await fetch(`${origin}/v1/pendingdevices/batchpromote`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ pendingDeviceIds: [pending.pendingDeviceId], subscriptionId: options.subscriptionId }),
  });
  if (promoted.status !== 200) throw new Error(`promote: ${promoted.status} ${await promoted.text()}`);
  const enrolled = await enrol();
  if (enrolled.status !== 'enrolled') throw new Error(`enrol: expected enrolled, got ${enrolled.status}`);
  return { deviceId: enrolled.deviceId, credential: enrolled.credential, agentKey, machineName };
}

/**
 * A real agent process that has asked to enrol (it is a pending device under `machineName`),
 * promoted into the subscription by an administrator, as on the Pending Devices page.
 */
export async function promoteRealAgent(
  portal: TestPortal,
  machineName: string,
  subscriptionId: string,
  output: readonly string[],
): Promise<void> {
  let pendingDeviceId: string | undefined;
  await until(
    async () => {
      pendingDeviceId = (
        await scoped(portal.db, ALL_TENANTS)
          .selectFrom('pending_device')
          .select('pending_device_id')
          .where('machine_name', '=', machineName)
          .executeTakeFirst()
      )?.pending_device_id;
      return pendingDeviceId !== undefined;
    },
    `the agent to enrol\n${output.join('\n')}`,
  );
  const promoted = await portal.as('admin', {
    method: 'POST',
    url: '/v1/pendingdevices/batchpromote',
    payload: { pendingDeviceIds: [pendingDeviceId], subscriptionId },
  });
  if (promoted.statusCode !== 200) throw new Error(`promote: ${promoted.statusCode} ${promoted.body}`);
}

/** A bundle of the agent that calls itself `version`, built at `out` as a release is (scripts/build-agent-executables.mjs). */
export function buildAgentRelease(version: string, out: string): string {
  execFileSync(process.execPath, [
    path.join(repositoryRoot, 'scripts', 'build-agent-executables.mjs'),
    '--release',
    version,
    '--out',
    out,
  ]);
  return out;
}

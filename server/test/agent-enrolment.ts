import { randomBytes } from 'node:crypto';
import type { EnrolmentResult } from '@cfs/contracts/agent';

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

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { decodeJwt, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEVICE_OPERATION_MESSAGES,
  type DeviceOperation,
  type OperationLogEntry,
} from '@cfs/contracts/device-operations';
import { FREQUENCY_TYPES, OPERATION_TYPES } from '@cfs/contracts/fleet';
import { DEMO } from '../src/db/demo-ids.js';
import { createListeningPortal, type TestPortal } from './harness.js';
import { startDemoAgent, type RunningDemoAgent } from './demo-agent-process.js';
import { until } from './processes.js';

/*
 * The real demo agent, started as the portal starts it (runDemoAgent, the agent from its sources),
 * asked by the portal to read the portal's own key files: it runs as the portal's user, so only
 * the agent's own allow list stands between a portal user and those keys. Then what a reader of
 * the signing key file would do with it: sign an administrator's token.
 */

let portal: TestPortal & { origin: string };
let agent: RunningDemoAgent | undefined;
/** The portal's key files, each with what it holds. */
const keyFiles = new Map<string, string>();
let readFileOperationId: string;

beforeAll(async () => {
  portal = await createListeningPortal();
  const { dataDir } = portal.config;
  const keys = path.join(dataDir, 'keys');
  // The portal on a database server of its own has no postgres-password and may make its secrets
  // key later: stand-ins where the portal has none, as owner-only as the portal's own.
  const standIns = [
    ['secrets.key', 'c2VjcmV0cyBrZXkgc3RhbmQtaW4='],
    ['postgres-password', 'postgres-password-stand-in'],
    ['postgres-portal-password', 'portal-password-stand-in'],
  ] as const;
  for (const [name, standIn] of standIns) {
    const file = path.join(keys, name);
    if (!fs.existsSync(file)) fs.writeFileSync(file, standIn, { mode: 0o600 });
  }
  for (const name of ['identity-provider.json', ...standIns.map(([file]) => file)])
    keyFiles.set(path.join(keys, name), fs.readFileSync(path.join(keys, name), 'utf8').trim());

  const readFile = await portal.db
    .selectFrom('operation as o')
    .innerJoin('package as p', 'p.package_id', 'o.package_id')
    .select('o.operation_id')
    .where('o.operation_type_id', '=', OPERATION_TYPES.LocalFileRead)
    .where((eb) => eb.or([eb('p.tenant_id', 'is', null), eb('p.tenant_id', '=', DEMO.contoso)]))
    .executeTakeFirstOrThrow();
  readFileOperationId = readFile.operation_id;

  // The portal's environment names DATA_DIR as readable, which must not reach the demo agent.
  agent = await startDemoAgent(portal, { CFS_AGENT_READ_ALLOW: dataDir });
}, 60_000);

afterAll(async () => {
  await agent?.stop();
  await portal?.close();
});

/** A Read File operation of the demo agent's device reading `file`, asked for by `userName`. */
const askToRead = (userName: string, file: string) =>
  portal.as(userName, {
    method: 'PUT',
    url: '/v1/deviceOperations',
    payload: {
      deviceId: DEMO.demoAgentDevice,
      operationId: readFileOperationId,
      label: `Read ${path.basename(file)}`,
      frequencyTypeId: FREQUENCY_TYPES.Recurring,
      interval: '00:00:30',
      parameters: [{ Name: 'Path', Source: 'PortalEntry', Value: file }],
    },
  });

describe("the demo agent asked for the portal's key files", () => {
  it('is not asked by an operator: setting up a Read File operation needs Devices.HostAccess, and nothing is made', async () => {
    for (const file of keyFiles.keys()) {
      const refused = await askToRead('operator', file);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({ message: DEVICE_OPERATION_MESSAGES.hostAccessRequired });
    }
    const made = await portal.db
      .selectFrom('device_operation')
      .select('label')
      .where('operation_id', '=', readFileOperationId)
      .where('created_by', '=', 'operator')
      .execute();
    expect(made).toEqual([]);
  });

  it('reads none of them for an administrator: each Read File run fails, saying the file is outside what it may read', async () => {
    // Each path as the operation names it, with the file the agent resolves it to: the full path,
    // and a path relative to the agent's data folder (DATA_DIR/demo-agent) that climbs out of it.
    const asked = [
      ...[...keyFiles.keys()].map((file) => [file, file] as const),
      ...[...keyFiles.keys()].map((file) => [path.join('..', 'keys', path.basename(file)), file] as const),
    ];
    const operations = new Map<string, string>();
    for (const [named, file] of asked) {
      const created = await askToRead('admin', named);
      expect(created.statusCode, created.body).toBe(200);
      operations.set(created.json<DeviceOperation>().deviceOperationId, file);
    }

    const logsOf = async (id: string) =>
      (await portal.as('admin', { method: 'GET', url: `/v1/deviceOperations/${id}/logs` })).json<OperationLogEntry[]>();
    for (const [id, file] of operations) {
      await until(
        async () => (await logsOf(id)).length > 0,
        `the demo agent to report its read of ${file}\n${(agent?.output ?? []).join('\n')}`,
        30_000,
      );
      const logs = await logsOf(id);
      expect(logs.map((entry) => [entry.entryType, entry.detail])).toEqual([
        ['Error', `Failure: ${file} is outside the folders this agent may read (--read-allow)`],
      ]);
      await until(
        async () =>
          (await portal.as('admin', { method: 'GET', url: `/v1/deviceOperations/${id}` })).json<DeviceOperation>()
            .packetInfo !== null,
        `the packet of ${file}`,
        10_000,
      );
      const operation = (
        await portal.as('admin', { method: 'GET', url: `/v1/deviceOperations/${id}` })
      ).json<DeviceOperation>();
      const seen = JSON.stringify([operation, logs]);
      for (const content of keyFiles.values()) expect(seen).not.toContain(content);
      expect(operation.packetInfo?.value).toBe('');
    }
  }, 90_000);
});

describe("a token signed with the portal's own key file", () => {
  /** The administrator's token as a reader of DATA_DIR/keys/identity-provider.json signs it, for the right issuer and audience. */
  async function forge(claims: JWTPayload): Promise<string> {
    const file = path.join(portal.config.dataDir, 'keys', 'identity-provider.json');
    const { signing } = JSON.parse(fs.readFileSync(file, 'utf8')) as { signing: JWK & { kid: string } };
    const { authority, audience, clientId } = portal.config.oidc;
    return new SignJWT({ client_id: clientId, scope: 'openid profile email api', ...claims })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: signing.kid })
      .setIssuer(authority)
      .setAudience(audience)
      .setSubject('admin')
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime('1h')
      .sign(await importJWK(signing, 'RS256'));
  }
  const currentUser = async (token: string) =>
    (await fetch(`${portal.origin}/v1/currentUser`, { headers: { authorization: `Bearer ${token}` } })).status;
  const signInOf = async (userName: string) => String(decodeJwt(await portal.token(userName)).gid);

  it('is refused with 401 when it names no live sign-in of its subject, or none at all: the key alone is no way in', async () => {
    expect(await currentUser(await forge({}))).toBe(401);
    expect(await currentUser(await forge({ gid: randomUUID() }))).toBe(401);
    expect(await currentUser(await forge({ gid: await signInOf('enduser') }))).toBe(401);
    // The key is the real one: with the administrator's own live sign-in the same token is accepted.
    expect(await currentUser(await forge({ gid: await signInOf('admin') }))).toBe(200);
  });
});

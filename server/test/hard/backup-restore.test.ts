import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AgentConfiguration, EnrolmentResult } from '@cfs/contracts/agent';
import { hashPassword } from '../../src/auth/passwords.js';
import { connect, type Db } from '../../src/db/database.js';
import { DEMO } from '../../src/db/demo-ids.js';
import { reportFigures } from '../figures.js';
import { tokensFor } from '../sign-in-flow.js';
import { freePort, runCommand, spawnPortal, until, waitForHealth, type TestProcess } from '../processes.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';

/*
 * Backup and restore, as the README's "Backup and restore" says: a portal on DATA_DIR A and a
 * database is given tenant secrets, package files, users with passwords and API tokens; it is
 * backed up with `npm run backup` while it runs, then stopped and its DATA_DIR deleted; the backup
 * is restored with `npm run restore` into an empty DATA_DIR B and an empty database, and a portal
 * started on them must still open every secret (an action test run sends it to a listener), serve
 * every package file byte for byte, sign every user in with their password and accept every API
 * token — and the sign-ins made before the backup (their access tokens) still hold.
 */

const K = 3;

interface Received {
  path: string;
  secret: string | undefined;
}

let origin: string;
let listener: http.Server;
let listenerUrl: string;
const received: Received[] = [];
let workDir: string;
const databases: TestDatabase[] = [];
const portals: TestProcess[] = [];
const pools: Db[] = [];

beforeAll(async () => {
  listener = http.createServer((request, response) => {
    const secret = request.headers['x-secret'];
    received.push({ path: request.url ?? '', secret: typeof secret === 'string' ? secret : undefined });
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  origin = `http://127.0.0.1:${await freePort()}`;
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-backup-'));
});

afterAll(async () => {
  for (const portal of portals) portal.child.kill('SIGTERM');
  await Promise.all(portals.map((portal) => portal.exited()));
  for (const pool of pools) await pool.destroy();
  for (const database of databases) await database.drop();
  listener?.closeAllConnections();
  await new Promise((resolve) => listener?.close(resolve));
  await fs.rm(workDir, { recursive: true, force: true });
});

/** The portal's settings, the same before and after the restore but for DATA_DIR and the database. */
function startPortal(dataDir: string, databaseUrl: string, env: Record<string, string> = {}): TestProcess {
  const portal = spawnPortal({
    PORT: new URL(origin).port,
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DEMO_SEED: 'true',
    OUTBOUND_ALLOW: new URL(listenerUrl).host,
    ...env,
  });
  portals.push(portal);
  return portal;
}

async function stopPortal(portal: TestProcess): Promise<void> {
  portal.child.kill('SIGTERM');
  await portal.exited();
}

async function call<T>(
  method: string,
  url: string,
  bearer: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as T };
}

async function expectOk<T>(method: string, url: string, bearer: string, body?: unknown): Promise<T> {
  const { status, json } = await call<T>(method, url, bearer, body);
  if (status !== 200) throw new Error(`${method} ${url} answered ${status}: ${JSON.stringify(json)}`);
  return json;
}

const enrol = (token: string, agentKey: string) =>
  call<EnrolmentResult>('POST', '/v1/agent/enrol', token, {
    agentKey,
    machineName: 'backup-host',
    operatingSystem: 'linux',
    architecture: 'x64',
  });

/** What the portal holds before the backup, and how to check it afterwards. */
interface Holdings {
  secrets: { name: string; value: string; actionDefinitionId: string }[];
  files: { packageVersionId: string; content: Buffer }[];
  device: { credential: string };
  users: { userName: string; password: string; accessToken: string }[];
  tokens: string[];
}

async function fill(db: Db): Promise<Holdings> {
  const { tokens: admin } = await tokensFor(origin, 'admin', 'admin');
  const bearer = admin.access_token;

  const secrets: Holdings['secrets'] = [];
  for (let i = 0; i < K; i++) {
    const name = `Backup${i}`;
    const value = randomBytes(18).toString('base64url');
    await expectOk('PUT', `/v1/tenants/${DEMO.contoso}/secrets`, bearer, { name, value });
    const action = await expectOk<{ actionDefinitionId: string }>('PUT', '/v1/actionDefinitions', bearer, {
      name: `Backup check ${i}`,
      actionDefinitionTypeId: 4,
      tenantId: DEMO.contoso,
      endpointUrl: `${listenerUrl}/secret/${i}`,
      httpMethod: 'POST',
      headers: `X-Secret: {Secret:${name}}`,
    });
    secrets.push({ name, value, actionDefinitionId: action.actionDefinitionId });
  }

  const tokens: string[] = [];
  for (let i = 0; i < K; i++)
    tokens.push(
      (
        await expectOk<{ generatedToken: string }>('PUT', '/v1/tokens', bearer, {
          tenantId: DEMO.contoso,
          name: `Backup token ${i}`,
          lifetimeYears: 1,
        })
      ).generatedToken,
    );

  // A device of Contoso's that is to install K packages, each one uploaded version.
  const agentKey = randomBytes(32).toString('base64url');
  const pending = (await enrol(tokens[0] ?? '', agentKey)).json;
  if (pending.status !== 'pending') throw new Error(`Expected a pending device, got ${JSON.stringify(pending)}`);
  const { deviceIds } = await expectOk<{ deviceIds: string[] }>('POST', '/v1/pendingdevices/batchpromote', bearer, {
    pendingDeviceIds: [pending.pendingDeviceId],
    subscriptionId: DEMO.contosoProduction,
  });
  const enrolled = (await enrol(tokens[0] ?? '', agentKey)).json;
  if (enrolled.status !== 'enrolled') throw new Error(`Expected an enrolled device, got ${JSON.stringify(enrolled)}`);
  const files: Holdings['files'] = [];
  for (let i = 0; i < K; i++) {
    const pkg = await expectOk<{ packageId: string }>('PUT', '/v1/packages', bearer, {
      name: `Backup package ${i} ${randomUUID().slice(0, 6)}`,
      packageTypeId: 3,
      tenantId: DEMO.contoso,
      operatingSystemRidsId: [4],
    });
    const content = randomBytes(100_000 + i);
    const form = new FormData();
    form.set('packageId', pkg.packageId);
    form.set('version', '1.0.0');
    form.set('label', 'Backed up');
    form.set('file-0', new Blob([content]), `backup-${i}.bin`);
    const uploaded = await fetch(`${origin}/v1/packages/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}` },
      body: form,
    });
    if (uploaded.status !== 200) throw new Error(`The upload answered ${uploaded.status}: ${await uploaded.text()}`);
    const { packageVersionId } = (await uploaded.json()) as { packageVersionId: string };
    await expectOk('POST', `/v1/deviceInstallations/${deviceIds[0] ?? ''}/packages`, bearer, [
      { packageId: pkg.packageId, deviceId: deviceIds[0], packageVersionId },
    ]);
    files.push({ packageVersionId, content });
  }

  // Local users with passwords of their own (not the demo seed's, which a fresh database would recreate).
  const users: Holdings['users'] = [];
  const operatorRole = await db
    .selectFrom('app_role')
    .select('role_id')
    .where('name', '=', 'Operator')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < K; i++) {
    const userName = `restorer${i}`;
    const password = randomBytes(12).toString('base64url');
    const { user_id } = await db
      .insertInto('app_user')
      .values({
        user_name: userName,
        display_name: `Restorer ${i}`,
        email: `${userName}@cfs.example`,
        password_hash: await hashPassword(password),
        all_tenants: false,
        tenant_id: DEMO.contoso,
        subscription_id: DEMO.contosoProduction,
        assignment_groups: [],
      })
      .returning('user_id')
      .executeTakeFirstOrThrow();
    await db.insertInto('user_role').values({ user_id, role_id: operatorRole.role_id }).execute();
    await db.insertInto('user_tenant').values({ user_id, tenant_id: DEMO.contoso }).execute();
    const { tokens: signedIn } = await tokensFor(origin, userName, password);
    users.push({ userName, password, accessToken: signedIn.access_token });
  }
  return { secrets, files, device: { credential: enrolled.credential }, users, tokens };
}

/** Counts what the portal at `origin` still serves of `holdings`: each check is readable / total. */
async function check(db: Db, holdings: Holdings) {
  const { tokens: admin } = await tokensFor(origin, 'admin', 'admin');
  let secrets = 0;
  for (const [i, secret] of holdings.secrets.entries()) {
    received.length = 0;
    const { id } = await expectOk<{ id: string }>(
      'POST',
      `/v1/actionDefinitions/${secret.actionDefinitionId}/test`,
      admin.access_token,
      { tenantId: DEMO.contoso },
    );
    // The run is over when its history row is written, whether it reached the listener or not.
    await until(
      async () =>
        (await db.selectFrom('action_history').select('message_id').where('message_id', '=', id).executeTakeFirst()) !==
        undefined,
      `the test run of ${secret.name}`,
      30_000,
    );
    if (received.some((request) => request.path === `/secret/${i}` && request.secret === secret.value)) secrets += 1;
  }

  let files = 0;
  const configuration = await call<AgentConfiguration>('GET', '/v1/agent/configuration', holdings.device.credential);
  for (const file of holdings.files) {
    const wanted = configuration.json?.packages?.find((pkg) => pkg.packageVersionId === file.packageVersionId);
    if (!wanted) continue;
    const download = await fetch(new URL(new URL(wanted.downloadUrl).pathname, origin), {
      headers: { authorization: `Bearer ${holdings.device.credential}` },
    });
    if (download.status === 200 && Buffer.from(await download.arrayBuffer()).equals(file.content)) files += 1;
  }

  let signIns = 0;
  let sessions = 0;
  for (const user of holdings.users) {
    try {
      const { tokens } = await tokensFor(origin, user.userName, user.password);
      const me = await call<{ userName: string }>('GET', '/v1/currentUser', tokens.access_token);
      if (me.status === 200 && me.json.userName === user.userName) signIns += 1;
    } catch {
      // Not signed in: counted as such.
    }
    if ((await call('GET', '/v1/currentUser', user.accessToken)).status === 200) sessions += 1;
  }

  let apiTokens = 0;
  for (const token of holdings.tokens)
    if ((await enrol(token, randomBytes(32).toString('base64url'))).status === 200) apiTokens += 1;
  return { secrets, files, signIns, sessions, apiTokens };
}

describe('backup and restore', () => {
  test('a portal restored from the README procedure into an empty DATA_DIR and database keeps every secret, package file, sign-in and API token', async () => {
    const dataDirA = path.join(workDir, 'a');
    const dataDirB = path.join(workDir, 'b');
    const dataDirC = path.join(workDir, 'c');
    const backupDir = path.join(workDir, 'backup');
    const [databaseA, databaseB, databaseC] = [
      await createTestDatabase({ empty: true }),
      await createTestDatabase({ empty: true }),
      await createTestDatabase({ empty: true }),
    ];
    databases.push(databaseA, databaseB, databaseC);
    const [dbA, dbB, dbC] = [connect(databaseA.url, 2), connect(databaseB.url, 2), connect(databaseC.url, 2)];
    pools.push(dbA, dbB, dbC);

    const portalA = startPortal(dataDirA, databaseA.url);
    await waitForHealth(portalA, origin);
    const holdings = await fill(dbA);
    const before = await check(dbA, holdings);

    // Backed up while the portal runs; then the portal and its DATA_DIR are gone.
    await runCommand('npm', ['run', '--silent', 'backup', '--', backupDir], {
      DATA_DIR: dataDirA,
      DATABASE_URL: databaseA.url,
    });
    await stopPortal(portalA);
    await fs.rm(dataDirA, { recursive: true, force: true });

    await runCommand('npm', ['run', '--silent', 'restore', '--', backupDir], {
      DATA_DIR: dataDirB,
      DATABASE_URL: databaseB.url,
    });
    const portalB = startPortal(dataDirB, databaseB.url);
    await waitForHealth(portalB, origin);
    const after = await check(dbB, holdings);
    await stopPortal(portalB);

    // The same backup into a portal that keeps its package files in the database (FILE_STORE=database).
    await runCommand('npm', ['run', '--silent', 'restore', '--', backupDir], {
      DATA_DIR: dataDirC,
      DATABASE_URL: databaseC.url,
      FILE_STORE: 'database',
    });
    const portalC = startPortal(dataDirC, databaseC.url, { FILE_STORE: 'database' });
    await waitForHealth(portalC, origin);
    const intoDatabase = await check(dbC, holdings);
    await stopPortal(portalC);

    reportFigures('backup and restore', {
      secrets: `${after.secrets}/${K}`,
      'package files': `${after.files}/${K}`,
      'sign-ins': `${after.signIns}/${K}`,
      'api tokens': `${after.apiTokens}/${K}`,
      sessions: `${after.sessions}/${K}`,
      'package files into the database store': `${intoDatabase.files}/${K}`,
    });
    // Everything worked before the backup, so what fails afterwards was lost by it.
    expect(before).toEqual({ secrets: K, files: K, signIns: K, sessions: K, apiTokens: K });
    expect(after).toEqual({ secrets: K, files: K, signIns: K, sessions: K, apiTokens: K });
    expect(intoDatabase).toEqual({ secrets: K, files: K, signIns: K, sessions: K, apiTokens: K });
  });
});

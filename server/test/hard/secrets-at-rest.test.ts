import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hashToken } from '../../src/auth/api-tokens.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { createSecretBox } from '../../src/crypto/secret-box.js';
import { DEMO } from '../../src/db/demo-ids.js';
import { enrolDeviceOverHttp } from '../agent-enrolment.js';
import { reportFigures } from '../figures.js';
import { withClient } from '../global-setup.js';
import { freePort } from '../processes.js';
import { endSession, refresh, tokensFor } from '../sign-in-flow.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';

/*
 * Secrets at rest. A portal process of its own (its own DATA_DIR, database and log file) is driven
 * through every area that takes a secret: tenant secrets (two versions of one) used by an HTTP
 * action's header, API tokens, an agent's key and device credential, a sign-in with a password
 * and its refresh token, the SMTP password of SMTP_URL and the secrets key itself. Then a dump of
 * the database, the database's own files, every file under DATA_DIR, the server's log and every
 * API answer are searched for each of them, as written and base64-, base64url-, hex- and
 * URL-encoded: none may be found, except in the one answer that hands it over. Then the secrets
 * key is rotated as the README says, and every secret must still work under the new key alone.
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const STOP_TIMEOUT_MS = 30_000;

let database: TestDatabase;
let work: string;
let dataDir: string;
let logFile: string;
let origin: string;
let port: number;
/** The loopback service an HTTP action calls: it records what it was sent and echoes the credential back. */
let service: Server;
let serviceOrigin: string;
const received: IncomingHttpHeaders[] = [];

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');
const smtpPassword = `smtp-${randomBytes(18).toString('base64url')}`;
const adminPassword = `pw-${randomBytes(18).toString('base64url')}`;

/** Every secret of the run, by what it is. */
const secrets = new Map<string, string>();
/** Every API answer: what was asked, the text of its status, headers and body, and the secrets it exists to hand over. */
const answers: { request: string; text: string; handsOver: string[] }[] = [];

function portalEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'SECRETS_KEY', 'SECRETS_PREVIOUS_KEYS', 'SMTP_URL', 'OUTBOUND_ALLOW', 'TEST_LOG'])
    delete env[name];
  return {
    ...env,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    // The most a log says: whatever it says, it must not be a secret.
    LOG_LEVEL: 'debug',
    DEMO_SEED: 'true',
    DEMO_AGENT: 'false',
    SMTP_URL: `smtp://cfs-mailer:${smtpPassword}@127.0.0.1:9`,
    OUTBOUND_ALLOW: new URL(serviceOrigin).host,
    ...extra,
  };
}

/** Runs a script of the server (its TypeScript sources) with the portal's settings, its output appended to the log. */
function script(file: string, env: NodeJS.ProcessEnv): ChildProcess {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(ROOT, 'server', 'src', ...file.split('/'))],
    { cwd: ROOT, env, stdio: ['ignore', log, log] },
  );
  fs.closeSync(log);
  return child;
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}; the log ends:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

let running: ChildProcess | undefined;

async function startPortal(keys: { key: string; previous?: string }): Promise<void> {
  const child = script(
    'main.ts',
    portalEnv({ SECRETS_KEY: keys.key, ...(keys.previous ? { SECRETS_PREVIOUS_KEYS: keys.previous } : {}) }),
  );
  running = child;
  await waitUntil('the portal to serve', async () => {
    if (child.exitCode !== null)
      throw new Error(`The portal exited with ${child.exitCode}:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
    return fetch(`${origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
  });
}

async function stopPortal(): Promise<void> {
  const child = running;
  running = undefined;
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited(child);
  clearTimeout(timer);
}

async function answerText(response: Response): Promise<string> {
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  return `${response.status}\n${headers}\n\n${await response.text()}`;
}

/**
 * An API call with a bearer (a person's access token, an API token or a device credential); the
 * answer is kept for the search. `handsOver`: the secrets this answer exists to show.
 */
async function api<T = unknown>(
  bearer: string,
  method: string,
  url: string,
  body?: unknown,
  handsOver: (json: T) => string[] = () => [],
): Promise<{ status: number; json: T }> {
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answerText(response);
  const payload = text.slice(text.indexOf('\n\n') + 2);
  let json: unknown = undefined;
  try {
    json = JSON.parse(payload);
  } catch {
    // Not JSON (CSV exports, empty answers): kept as text for the search.
  }
  answers.push({ request: `${method} ${url}`, text, handsOver: json === undefined ? [] : handsOver(json as T) });
  return { status: response.status, json: json as T };
}

/** The forms a secret may take when something encodes it on its way to the disk or the log. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [
    ...new Set([
      secret,
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('hex'),
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
    ]),
  ];
}

interface Finding {
  secret: string;
  place: string;
}

/** Searches one place's bytes for every secret (not the ones it hands over). */
function search(place: string, bytes: Buffer, findings: Finding[], handsOver: readonly string[] = []): void {
  for (const [name, secret] of secrets) {
    if (handsOver.includes(secret)) continue;
    for (const form of encodings(secret)) {
      if (bytes.includes(form)) {
        findings.push({ secret: name, place });
        break;
      }
    }
  }
}

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.isFile() ? [full] : [];
  });
}

/** A pg_dump that can dump the server (its major version or later: PATH, or Debian's /usr/lib/postgresql/<major>/bin), or none. */
function pgDumpFor(serverMajor: number): string | undefined {
  const candidates = [path.join('/usr/lib/postgresql', String(serverMajor), 'bin', 'pg_dump'), 'pg_dump'];
  return candidates.find((candidate) => {
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    const major = Number(/(\d+)\./.exec(version.stdout ?? '')?.[1]);
    return version.status === 0 && major >= serverMajor;
  });
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-secrets-'));
  dataDir = path.join(work, 'data');
  logFile = path.join(work, 'portal.log');
  database = await createTestDatabase();
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  service = createServer((request, response) => {
    received.push(request.headers);
    request.resume();
    // An answer that echoes the credential: the history keeps the answer, so it must mask it.
    const echoed = request.headers.authorization ?? '';
    response.writeHead(200, { 'content-type': 'text/plain', 'x-echo': echoed }).end(`you sent ${echoed}`);
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceOrigin = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  // The administrator's password is one of the run's secrets: set before the portal starts.
  const hash = await hashPassword(adminPassword);
  await withClient(database.url, (client) =>
    client.query('UPDATE app_user SET password_hash = $1 WHERE user_name = $2', [hash, 'admin']),
  );
}, 120_000);

afterAll(async () => {
  await stopPortal();
  await new Promise((resolve) => service?.close(resolve));
  await database?.drop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('secrets at rest', () => {
  test('no secret is found in the database, its files, the data directory, the log or any answer, and rotating the key keeps every one working', async () => {
    secrets.set('secrets key', keyA);
    secrets.set('next secrets key', keyB);
    secrets.set('SMTP password', smtpPassword);
    secrets.set('password', adminPassword);
    await startPortal({ key: keyA });

    // Sign-in with the password: the tokens the browser holds.
    const { browser, tokens } = await tokensFor(origin, 'admin', adminPassword);
    secrets.set('refresh token', tokens.refresh_token);
    secrets.set('access token', tokens.access_token);
    secrets.set('session cookie', browser.cookie('_session') ?? '');
    expect(secrets.get('session cookie')).not.toBe('');
    const bearer = tokens.access_token;
    const renewed = await refresh(origin, tokens.refresh_token);
    expect(renewed.status).toBe(200);
    // Each renewal spends its refresh token: the renewed one is the sign-in's from now on.
    const renewedTokens = (await renewed.json()) as { access_token: string; refresh_token: string };
    secrets.set('renewed access token', renewedTokens.access_token);
    secrets.set('renewed refresh token', renewedTokens.refresh_token);

    // A sign-in that is ended (its ID token travels in the logout address) and then refused.
    const ended = await tokensFor(origin, 'admin', adminPassword);
    secrets.set('ID token', ended.tokens.id_token);
    secrets.set('refresh token of an ended sign-in', ended.tokens.refresh_token);
    expect((await endSession(ended.browser, ended.tokens.id_token)).status).toBeLessThan(400);
    expect((await refresh(origin, ended.tokens.refresh_token)).status).toBe(400);

    // Tenant secrets: one with two versions, the latest used by an action's header.
    const apiKey1 = `key1-${randomBytes(24).toString('base64url')}`;
    const apiKey2 = `key2-${randomBytes(24).toString('base64url')}`;
    const webhook = `hook-${randomBytes(24).toString('base64url')}`;
    secrets.set('tenant secret (first version)', apiKey1);
    secrets.set('tenant secret (second version)', apiKey2);
    secrets.set('tenant secret of another tenant', webhook);
    const created = await api<{ secretId: string }>(bearer, 'PUT', `/v1/tenants/${DEMO.contoso}/secrets`, {
      name: 'ServiceApiKey',
      value: apiKey1,
    });
    expect(created.status).toBe(200);
    const secretId = created.json.secretId;
    expect(
      (await api(bearer, 'POST', `/v1/tenants/${DEMO.contoso}/secrets/${secretId}`, { value: apiKey2 })).status,
    ).toBe(200);
    const other = await api<{ secretId: string }>(bearer, 'PUT', `/v1/tenants/${DEMO.fabrikam}/secrets`, {
      name: 'WebhookSecret',
      value: webhook,
    });
    expect(other.status).toBe(200);
    const latest = await api<{ value: string }>(
      bearer,
      'GET',
      `/v1/tenants/${DEMO.contoso}/secrets/${secretId}/versions/latest`,
      undefined,
      (json) => [json.value],
    );
    expect(latest.json.value).toBe(apiKey2);

    // An HTTP action that sends the secret in a header, tested from the Action Catalog.
    const action = await api<{ actionDefinitionId: string }>(bearer, 'PUT', '/v1/actionDefinitions', {
      name: `Secret header ${randomUUID().slice(0, 6)}`,
      actionDefinitionTypeId: 4,
      tenantId: DEMO.contoso,
      endpointUrl: `${serviceOrigin}/hook`,
      headers: 'Authorization: Bearer {Secret:ServiceApiKey}',
    });
    expect(action.status, JSON.stringify(action.json)).toBe(200);
    const actionId = action.json.actionDefinitionId;
    const runAction = async (sentBefore: number) => {
      expect(
        (
          await api(bearer, 'POST', `/v1/actionDefinitions/${actionId}/test`, {
            tenantId: DEMO.contoso,
            parameters: {},
          })
        ).status,
      ).toBe(200);
      await waitUntil('the action to call the service', () => Promise.resolve(received.length > sentBefore));
      return received[received.length - 1]?.authorization;
    };
    expect(await runAction(received.length)).toBe(`Bearer ${apiKey2}`);

    // API tokens: one kept, one revoked; an agent enrolled with the first, its key and its credential.
    const tokenBody = (name: string) => ({ tenantId: DEMO.contoso, name, lifetimeYears: 1 });
    const shownOnce = (json: { generatedToken: string }) => [json.generatedToken];
    const token = await api<{ generatedToken: string; tokenGrantId: string }>(
      bearer,
      'PUT',
      '/v1/tokens',
      tokenBody('Agents'),
      shownOnce,
    );
    const revoked = await api<{ generatedToken: string; tokenGrantId: string }>(
      bearer,
      'PUT',
      '/v1/tokens',
      tokenBody('Old script'),
      shownOnce,
    );
    secrets.set('API token', token.json.generatedToken);
    secrets.set('revoked API token', revoked.json.generatedToken);
    expect((await api(bearer, 'PUT', `/v1/tokens/${revoked.json.tokenGrantId}/revoke`)).status).toBe(200);
    const device = await enrolDeviceOverHttp(origin, {
      adminToken: bearer,
      apiToken: token.json.generatedToken,
      subscriptionId: DEMO.contosoProduction,
    });
    secrets.set('agent key', device.agentKey);
    secrets.set('device credential', device.credential);
    // A device operation whose parameter is a secured value: the configuration hands the device the secret's value.
    const pkg = await api<{ packageId: string }>(bearer, 'PUT', '/v1/packages', {
      tenantId: DEMO.contoso,
      name: `Secured ${randomUUID().slice(0, 6)}`,
      packageTypeId: 1,
      operatingSystemRidsId: [1],
    });
    expect(pkg.status).toBe(200);
    const operation = await api<{ operationId: string }>(
      bearer,
      'PUT',
      `/v1/packages/${pkg.json.packageId}/operations`,
      {
        name: 'Sign in',
        frequencyDefinitions: [2],
        defaultInterval: '00:05:00',
        operationType: 6,
        operationResultTypeId: 2,
      },
    );
    expect(operation.status).toBe(200);
    const securedOperation = await api(bearer, 'PUT', '/v1/deviceOperations', {
      deviceId: device.deviceId,
      operationId: operation.json.operationId,
      label: 'Secured sign-in',
      frequencyTypeId: 2,
      interval: '00:05:00',
      parameters: [{ Name: 'Password', Source: 'SecuredValue', Value: 'ServiceApiKey' }],
    });
    expect(securedOperation.status, JSON.stringify(securedOperation.json)).toBe(200);
    type Configuration = { operations: { parameters: { name: string; value: string | null }[] }[] };
    const configurationAnswer = () =>
      api<Configuration>(device.credential, 'GET', '/v1/agent/configuration', undefined, (json) =>
        json.operations.flatMap((entry) =>
          entry.parameters.flatMap((parameter) => (parameter.value ? [parameter.value] : [])),
        ),
      );
    const securedValue = async () =>
      (await configurationAnswer()).json.operations
        .flatMap((entry) => entry.parameters)
        .find((parameter) => parameter.name === 'Password')?.value;
    expect(await securedValue()).toBe(apiKey2);

    const packet = (entityId: string) => ({ entityId, timestamp: new Date().toISOString(), message: { Value: 1 } });
    const configuration = async () => (await configurationAnswer()).status;
    const report = async (credential: string, entityId: string) =>
      (await api(credential, 'POST', '/v1/packets', packet(entityId))).status;
    expect(await configuration()).toBe(200);
    expect(await report(device.credential, device.deviceId)).toBe(200);
    expect(await report(token.json.generatedToken, randomUUID())).toBe(200);
    expect(await report(revoked.json.generatedToken, randomUUID())).toBe(401);

    // An email through SMTP_URL (the server refuses the connection: the failure is recorded).
    expect(
      (
        await api(bearer, 'PUT', '/api/v1/rc/workunits', {
          tenantId: DEMO.contoso,
          title: 'Secrets at rest',
          description: 'A request that sends an email',
          stakeHolderPhoneNumber: '+1 425 555 0100',
        })
      ).status,
    ).toBe(200);

    // Every area read back: each GET of the API without parameters, and the records just made.
    const openApi = await api<{ paths: Record<string, Record<string, unknown>> }>(bearer, 'GET', '/openapi.json');
    const reads = Object.entries(openApi.json.paths).filter(
      ([route, methods]) => !route.includes('{') && 'get' in methods,
    );
    expect(reads.length).toBeGreaterThan(40);
    for (const [route] of reads) await api(bearer, 'GET', route);
    for (const url of [
      `/v1/tenants/${DEMO.contoso}/secrets`,
      `/v1/tenants/${DEMO.fabrikam}/secrets`,
      `/v1/tokens/${token.json.tokenGrantId}`,
      `/v1/devices/${device.deviceId}`,
      `/v1/actionDefinitions/${actionId}`,
      `/v1/auditEvents?entityType=tenantSecret&entityId=${secretId}`,
      `/v1/auditEvents?entityType=token&entityId=${token.json.tokenGrantId}`,
    ]) {
      await api(bearer, 'GET', url);
    }
    const histories = await api<{ value: { actionHistoryId: number }[] }>(
      bearer,
      'GET',
      `/v1/actionHistories?$filter=${encodeURIComponent(`actionDefinitionId eq ${actionId}`)}`,
    );
    expect(histories.json.value.length).toBeGreaterThan(0);
    for (const history of histories.json.value)
      await api(bearer, 'GET', `/v1/actionHistories/${history.actionHistoryId}`);

    // Rotation, as the README tells it: the new key current and the old one previous, the
    // rotation script, then the new key alone.
    await stopPortal();
    await startPortal({ key: keyB, previous: keyA });
    const rotation = script('cli/rotate-secrets.ts', portalEnv({ SECRETS_KEY: keyB, SECRETS_PREVIOUS_KEYS: keyA }));
    expect(await exited(rotation)).toBe(0);
    await stopPortal();
    await startPortal({ key: keyB });

    const checks: { what: string; ok: boolean }[] = [];
    const check = (what: string, ok: boolean) => void checks.push({ what, ok });
    const boxB = createSecretBox(Buffer.from(keyB, 'base64'));
    const versions = await withClient(database.url, (client) =>
      client.query<{ secret_id: string; version: number; key_id: string; ciphertext: string }>(
        'SELECT secret_id, version, key_id, ciphertext FROM tenant_secret_version ORDER BY secret_id, version',
      ),
    );
    const expected = new Map([
      [`${secretId}:1`, apiKey1],
      [`${secretId}:2`, apiKey2],
      [`${other.json.secretId}:1`, webhook],
    ]);
    for (const [version, value] of expected) {
      const row = versions.rows.find((candidate) => `${candidate.secret_id}:${candidate.version}` === version);
      let opened: string | undefined;
      try {
        opened = row ? boxB.decrypt(row.key_id, row.ciphertext) : undefined;
      } catch {
        opened = undefined;
      }
      check(`tenant secret version ${version} opens with the new key alone`, opened === value);
    }
    const readBack = await api<{ value: string }>(
      bearer,
      'GET',
      `/v1/tenants/${DEMO.fabrikam}/secrets/${other.json.secretId}/versions/latest`,
      undefined,
      (json) => [json.value],
    );
    check('a tenant secret is read through the API', readBack.status === 200 && readBack.json.value === webhook);
    check(
      'an action sends the tenant secret in its header',
      (await runAction(received.length)) === `Bearer ${apiKey2}`,
    );
    check('the refresh token renews the sign-in', (await refresh(origin, renewedTokens.refresh_token)).status === 200);
    check('the device credential speaks for its device', (await configuration()) === 200);
    check("the device receives its operation's secured value", (await securedValue()) === apiKey2);
    check('the API token reports packets', (await report(token.json.generatedToken, randomUUID())) === 200);

    // The search: the database (dumped, and its own files on disk), the data directory, the log, the answers.
    const findings: Finding[] = [];
    const places: { name: string; bytes: number }[] = [];
    const place = (name: string, bytes: Buffer, handsOver: readonly string[] = []) => {
      places.push({ name, bytes: bytes.length });
      search(name, bytes, findings, handsOver);
    };
    const server = await withClient(database.url, async (client) => {
      const version =
        (await client.query<{ server_version_num: string }>('SHOW server_version_num')).rows[0]?.server_version_num ??
        '0';
      const name = (await client.query<{ name: string }>('SELECT current_database() AS name')).rows[0]?.name ?? '';
      // The database's files as the server keeps them, dead row versions included (superusers only).
      const files = await client
        .query<{ dir: string; oid: number }>(
          "SELECT current_setting('data_directory') AS dir, oid::int FROM pg_database WHERE datname = current_database()",
        )
        .then(
          (result) => result.rows[0],
          () => undefined,
        );
      if (files) await client.query('CHECKPOINT');
      return { major: Math.floor(Number(version) / 10_000), name, files };
    });
    const pgDump = pgDumpFor(server.major);
    expect(pgDump, `a pg_dump of PostgreSQL ${server.major} or later`).toBeDefined();
    const dump = spawnSync(pgDump ?? 'pg_dump', ['--no-owner', '--dbname', database.url], {
      maxBuffer: 1024 * 1024 * 1024,
    });
    expect(dump.status, dump.stderr?.toString()).toBe(0);
    place('pg_dump', dump.stdout);
    const clusterFolder = server.files && path.join(server.files.dir, 'base', String(server.files.oid));
    if (clusterFolder && fs.existsSync(clusterFolder)) {
      for (const file of filesUnder(clusterFolder))
        place(`database file ${path.basename(file)}`, fs.readFileSync(file));
    }
    await stopPortal();
    for (const file of filesUnder(dataDir)) place(`DATA_DIR/${path.relative(dataDir, file)}`, fs.readFileSync(file));
    place('server log', fs.readFileSync(logFile));
    for (const answer of answers) place(`answer to ${answer.request}`, Buffer.from(answer.text), answer.handsOver);

    const readable = checks.filter((entry) => entry.ok).length;
    const searchedAnswers = answers.length;
    reportFigures('secrets at rest', {
      secrets: secrets.size,
      'places searched': places.length,
      answers: searchedAnswers,
      'bytes searched': places.reduce((sum, entry) => sum + entry.bytes, 0),
      found: findings.length,
      'readable after rotation': `${readable}/${checks.length}`,
    });
    expect(findings).toEqual([]);
    expect(checks.filter((entry) => !entry.ok)).toEqual([]);
    // The search could find something: the answers that hand secrets over do hold them.
    expect(
      answers
        .filter((answer) => answer.handsOver.length > 0)
        .every((answer) => answer.handsOver.every((secret) => answer.text.includes(secret))),
    ).toBe(true);
    // And the places hold what the run stored and did: the token's hash, the calls made.
    expect(dump.stdout.includes(hashToken(token.json.generatedToken))).toBe(true);
    expect(fs.readFileSync(logFile, 'utf8')).toContain(`/v1/actionDefinitions/${actionId}/test`);
  });
});

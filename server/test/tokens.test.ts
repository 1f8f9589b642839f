import { createPublicKey, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  decodeJwt,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  importJWK,
  SignJWT,
  type GenerateKeyPairResult,
  type JWK,
  type JWTPayload,
} from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateApiToken } from '../src/auth/api-tokens.js';
import { mintAccessToken } from '../src/auth/embedded/mint.js';
import { generateDeviceCredential } from '../src/auth/machine-callers.js';
import { DEMO } from '../src/db/demo-ids.js';
import { enrolDeviceOverHttp } from './agent-enrolment.js';
import { createTokenAs } from './factories.js';
import { reportFigures } from './figures.js';
import { createListeningPortal, type TestPortal } from './harness.js';
import { endSession, refresh, revokeRefreshToken, tokensFor } from './sign-in-flow.js';

/*
 * Every credential the portal should refuse, presented over HTTP to the routes it guards: forged
 * and tampered JWTs, the ID token as an access token, tokens of ended sign-ins, revoked refresh
 * tokens, revoked API tokens and device credentials. Not one may be accepted, and none may make
 * the portal fail (5xx). Each route first accepts the genuine credential, so a refusal is the
 * credential's doing, not the route's.
 */

let portal: TestPortal;
let origin: string;
/** Where a forged header's jku/x5u points: an attacker's key set, which the portal must never fetch. */
let attacker: Server;
let attackerOrigin: string;
let attackerFetches = 0;
let attackerKey: GenerateKeyPairResult['privateKey'];
let attackerJwk: JWK & { kid: string };
/** The live sign-in of the administrator's genuine (minted) token. */
let adminGrant: string;

beforeAll(async () => {
  portal = await createListeningPortal();
  origin = portal.config.publicUrl;
  adminGrant = grantOf(await portal.token('admin'));
  const pair = await generateKeyPair('RS256', { extractable: true });
  attackerKey = pair.privateKey;
  attackerJwk = { ...(await exportJWK(pair.publicKey)), kid: `attacker-${randomUUID()}`, alg: 'RS256', use: 'sig' };
  attacker = createServer((_request, response) => {
    attackerFetches += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [attackerJwk] }));
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => attacker?.close(resolve));
  await portal?.close();
});

interface Probe {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  body?: () => unknown;
}

/** Routes of people: a read of oneself, a tenant-scoped list, an administrator's write. */
const USER_ROUTES: Probe[] = [
  { method: 'GET', url: '/v1/currentUser' },
  { method: 'GET', url: '/v1/tenants' },
  { method: 'PUT', url: '/v1/tenants', body: () => ({ name: `Forged ${randomUUID().slice(0, 8)}` }) },
];

/** Routes of machines: the agent API and packet ingestion. */
const machineRoutes = (entityId: string): Probe[] => [
  { method: 'GET', url: '/v1/agent/configuration' },
  { method: 'POST', url: '/v1/agent/logs', body: () => ({ entries: [{ entryType: 'Information', detail: 'probe' }] }) },
  {
    method: 'POST',
    url: '/v1/packets',
    body: () => ({ entityId, timestamp: new Date().toISOString(), message: { Value: 1 } }),
  },
];

async function send(probe: Probe, credential: string): Promise<{ status: number; text: string }> {
  const body = probe.body?.();
  const response = await fetch(`${origin}${probe.url}`, {
    method: probe.method,
    headers: {
      authorization: `Bearer ${credential}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

/** Every attempt's outcome, for the figures. */
const outcomes: { name: string; route: string; status: number }[] = [];

/** Presents a credential that must be refused to each route; records what each answered. */
async function attempt(name: string, credential: string, routes: readonly Probe[]): Promise<void> {
  for (const probe of routes) {
    const { status } = await send(probe, credential);
    outcomes.push({ name, route: `${probe.method} ${probe.url}`, status });
  }
}

/** The same for a request that is not a bearer call (a refresh at the token endpoint): accepted means 2xx. */
function record(name: string, route: string, status: number): void {
  outcomes.push({ name, route, status });
}

async function expectAccepted(credential: string, routes: readonly Probe[]): Promise<void> {
  for (const probe of routes) {
    const { status, text } = await send(probe, credential);
    expect(status, `${probe.method} ${probe.url}: ${text.slice(0, 200)}`).toBeLessThan(300);
  }
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The sign-in (grant id) a genuine token names, read from the token. */
const grantOf = (token: string): string => String(decodeJwt(token).gid);

/** The claims of a genuine administrator's access token of this portal (naming the administrator's live sign-in). */
function adminClaims(): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: portal.config.oidc.authority,
    aud: portal.config.oidc.audience,
    sub: 'admin',
    client_id: portal.config.oidc.clientId,
    scope: 'openid profile email api',
    iat: now,
    exp: now + 3600,
    jti: randomUUID(),
    gid: adminGrant,
  };
}

/** Signs `claims` with the portal's own signing key: what only a forger holding that key could make, and the control that the claim checks bite. */
async function signWithPortalKey(claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  const keys = portal.runtime.keys;
  if (!keys) throw new Error('No embedded identity provider');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: keys.signing.kid, ...header })
    .sign(await importJWK(keys.signing, 'RS256'));
}

async function signWithAttackerKey(claims: JWTPayload, header: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', ...header }).sign(attackerKey);
}

async function hs256(claims: JWTPayload, secret: Uint8Array): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: portal.runtime.keys?.signing.kid ?? '' })
    .sign(secret);
}

describe('tokens the portal must refuse', () => {
  test('no forged, tampered, ended or revoked credential is accepted by any route, and none makes it fail', async () => {
    const keys = portal.runtime.keys;
    if (!keys) throw new Error('No embedded identity provider');
    const publicJwk: JWK = { kty: keys.signing.kty, n: keys.signing.n, e: keys.signing.e };
    const publicKey = createPublicKey({
      key: { kty: keys.signing.kty, n: keys.signing.n, e: keys.signing.e },
      format: 'jwk',
    });
    const publicPem = await exportSPKI(publicKey);
    const genuineAdmin = await portal.token('admin');
    await expectAccepted(genuineAdmin, USER_ROUTES);
    // The portal's own key does sign acceptable tokens: the claim checks below are what refuse them.
    await expectAccepted(await signWithPortalKey(adminClaims()), USER_ROUTES);

    // Forged JWTs.
    const kid = keys.signing.kid;
    await attempt('alg none', `${b64({ alg: 'none', typ: 'at+jwt', kid })}.${b64(adminClaims())}.`, USER_ROUTES);
    await attempt('alg None', `${b64({ alg: 'None', typ: 'at+jwt' })}.${b64(adminClaims())}.`, USER_ROUTES);
    await attempt(
      'HS256 keyed with the public key (PEM)',
      await hs256(adminClaims(), new TextEncoder().encode(publicPem)),
      USER_ROUTES,
    );
    await attempt(
      'HS256 keyed with the public key (JWK)',
      await hs256(adminClaims(), new TextEncoder().encode(JSON.stringify(publicJwk))),
      USER_ROUTES,
    );
    await attempt(
      'HS256 keyed with the public key (DER)',
      await hs256(adminClaims(), publicKey.export({ type: 'spki', format: 'der' })),
      USER_ROUTES,
    );
    await attempt(
      'embedded jwk',
      await signWithAttackerKey(adminClaims(), { jwk: { kty: attackerJwk.kty, n: attackerJwk.n, e: attackerJwk.e } }),
      USER_ROUTES,
    );
    await attempt(
      'embedded jwk under the portal kid',
      await signWithAttackerKey(adminClaims(), {
        kid,
        jwk: { kty: attackerJwk.kty, n: attackerJwk.n, e: attackerJwk.e },
      }),
      USER_ROUTES,
    );
    await attempt(
      'jku to an attacker key set',
      await signWithAttackerKey(adminClaims(), { kid: attackerJwk.kid, jku: `${attackerOrigin}/jwks.json` }),
      USER_ROUTES,
    );
    await attempt(
      'x5u to an attacker certificate',
      await signWithAttackerKey(adminClaims(), { kid: attackerJwk.kid, x5u: `${attackerOrigin}/cert.pem` }),
      USER_ROUTES,
    );
    await attempt('unknown kid', await signWithAttackerKey(adminClaims(), { kid: randomUUID() }), USER_ROUTES);
    await attempt('the portal kid, another key', await signWithAttackerKey(adminClaims(), { kid }), USER_ROUTES);
    await attempt('no kid, another key', await signWithAttackerKey(adminClaims(), {}), USER_ROUTES);
    await attempt(
      'kid as a path',
      await signWithAttackerKey(adminClaims(), { kid: '../../../../../../dev/null' }),
      USER_ROUTES,
    );
    await attempt('kid as SQL', await signWithAttackerKey(adminClaims(), { kid: "' OR '1'='1" }), USER_ROUTES);
    await attempt(
      'header not JSON',
      `${Buffer.from('{"alg":"RS256",').toString('base64url')}.${b64(adminClaims())}.c2ln`,
      USER_ROUTES,
    );
    await attempt('not a JWT', 'a.b.c', USER_ROUTES);
    await attempt('8 KB of nothing', 'x'.repeat(8192), USER_ROUTES);

    // Genuine tokens, altered.
    const [header, , signature] = (await portal.token('enduser')).split('.');
    await attempt('tampered payload (enduser made admin)', `${header}.${b64(adminClaims())}.${signature}`, USER_ROUTES);
    const genuineParts = genuineAdmin.split('.');
    await attempt(
      'tampered header (typ JWT)',
      `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${genuineParts[1]}.${genuineParts[2]}`,
      USER_ROUTES,
    );
    await attempt('signature stripped', `${genuineParts[0]}.${genuineParts[1]}.`, USER_ROUTES);

    // Signed with the portal's key, but not an access token for this API now.
    const now = Math.floor(Date.now() / 1000);
    await attempt(
      'wrong issuer',
      await signWithPortalKey({ ...adminClaims(), iss: 'https://idp.attacker.example' }),
      USER_ROUTES,
    );
    await attempt(
      'wrong audience',
      await signWithPortalKey({ ...adminClaims(), aud: portal.config.oidc.clientId }),
      USER_ROUTES,
    );
    await attempt('typ JWT', await signWithPortalKey(adminClaims(), { typ: 'JWT' }), USER_ROUTES);
    await attempt('no typ', await signWithPortalKey(adminClaims(), { typ: undefined }), USER_ROUTES);
    await attempt(
      'expired',
      await signWithPortalKey({ ...adminClaims(), iat: now - 7200, exp: now - 600 }),
      USER_ROUTES,
    );
    await attempt('not yet valid (nbf)', await signWithPortalKey({ ...adminClaims(), nbf: now + 600 }), USER_ROUTES);

    // The real sign-in's tokens.
    const signedIn = await tokensFor(origin, 'admin');
    await expectAccepted(signedIn.tokens.access_token, USER_ROUTES);
    await attempt('ID token as access token', signedIn.tokens.id_token, USER_ROUTES);
    expect((await endSession(signedIn.browser, signedIn.tokens.id_token)).status).toBeLessThan(400);
    await attempt('access token of an ended session', signedIn.tokens.access_token, USER_ROUTES);
    record(
      'refresh token of an ended session',
      'POST /oidc/token',
      (await refresh(origin, signedIn.tokens.refresh_token)).status,
    );

    const revoking = await tokensFor(origin, 'operator');
    expect((await refresh(origin, revoking.tokens.refresh_token)).status).toBe(200);
    expect((await revokeRefreshToken(origin, revoking.tokens.refresh_token)).status).toBe(200);
    record('revoked refresh token', 'POST /oidc/token', (await refresh(origin, revoking.tokens.refresh_token)).status);
    await attempt('access token of a revoked refresh token', revoking.tokens.access_token, USER_ROUTES);

    // Machines' credentials: API tokens and device credentials.
    const apiToken = await createTokenAs(portal, 'admin', DEMO.contoso);
    const enrolAndReport = (entityId: string): Probe[] => [
      {
        method: 'POST',
        url: '/v1/agent/enrol',
        body: () => ({
          agentKey: randomUUID().repeat(2),
          machineName: 'probe',
          operatingSystem: 'linux',
          architecture: 'x64',
        }),
      },
      {
        method: 'POST',
        url: '/v1/packets',
        body: () => ({ entityId, timestamp: new Date().toISOString(), message: { Value: 1 } }),
      },
    ];
    const tokenRoutes = enrolAndReport(randomUUID());
    await expectAccepted(apiToken.generatedToken, tokenRoutes);
    const device = async () =>
      enrolDeviceOverHttp(origin, {
        adminToken: genuineAdmin,
        apiToken: apiToken.generatedToken,
        subscriptionId: DEMO.contosoProduction,
      });
    const disabled = await device();
    const deleted = await device();
    const ofRevokedToken = await device();
    for (const enrolled of [disabled, deleted, ofRevokedToken])
      await expectAccepted(enrolled.credential, machineRoutes(enrolled.deviceId));
    // Machine credentials are for machine routes, people's tokens for people's routes.
    await attempt("API token on a person's route", apiToken.generatedToken, USER_ROUTES);
    await attempt("device credential on a person's route", disabled.credential, USER_ROUTES);
    await attempt("person's token on the agent API", genuineAdmin, machineRoutes(disabled.deviceId));

    const asAdmin = { authorization: `Bearer ${genuineAdmin}`, 'content-type': 'application/json' };
    const deviceBody = {
      name: 'Disabled by the tokens test',
      heartbeatInterval: 60,
      enabled: false,
      tenantId: DEMO.contoso,
      subscriptionId: DEMO.contosoProduction,
    };
    expect(
      (
        await fetch(`${origin}/v1/devices/${disabled.deviceId}`, {
          method: 'POST',
          headers: asAdmin,
          body: JSON.stringify(deviceBody),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await fetch(`${origin}/v1/devices/${deleted.deviceId}`, {
          method: 'DELETE',
          headers: { authorization: asAdmin.authorization },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await fetch(`${origin}/v1/tokens/${apiToken.tokenGrantId}/revoke`, {
          method: 'PUT',
          headers: { authorization: asAdmin.authorization },
        })
      ).status,
    ).toBe(200);
    await attempt('device credential of a disabled device', disabled.credential, machineRoutes(disabled.deviceId));
    await attempt('device credential of a deleted device', deleted.credential, machineRoutes(deleted.deviceId));
    await attempt(
      'device credential whose enrolment token is revoked',
      ofRevokedToken.credential,
      machineRoutes(ofRevokedToken.deviceId),
    );
    await attempt('revoked API token', apiToken.generatedToken, tokenRoutes);

    const live = await createTokenAs(portal, 'admin', DEMO.contoso);
    const liveDevice = await enrolDeviceOverHttp(origin, {
      adminToken: genuineAdmin,
      apiToken: live.generatedToken,
      subscriptionId: DEMO.contosoProduction,
    });
    await expectAccepted(liveDevice.credential, machineRoutes(liveDevice.deviceId));
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    await attempt('API token with one character changed', flip(live.generatedToken), tokenRoutes);
    await attempt('well-formed API token never issued', generateApiToken().token, tokenRoutes);
    await attempt(
      'device credential with one character changed',
      flip(liveDevice.credential),
      machineRoutes(liveDevice.deviceId),
    );
    await attempt(
      'device credential never issued',
      generateDeviceCredential().credential,
      machineRoutes(liveDevice.deviceId),
    );

    const accepted = outcomes.filter((outcome) => outcome.status < 300);
    const failed = outcomes.filter((outcome) => outcome.status >= 500);
    reportFigures('tokens', {
      attempts: outcomes.length,
      accepted: accepted.length,
      '5xx': failed.length,
      'key sets fetched': attackerFetches,
    });
    expect(accepted).toEqual([]);
    expect(failed).toEqual([]);
    expect(attackerFetches).toBe(0);
    // A refusal is a 401 at the gate, or the token endpoint's 400 invalid_grant: never a route's own answer.
    expect(
      outcomes.filter(
        (outcome) =>
          ![400, 401].includes(outcome.status) || (outcome.status === 400 && !outcome.route.startsWith('POST /oidc/')),
      ),
    ).toEqual([]);
  }, 60_000);
});

describe("an access token signed with the portal's own key is accepted only while its sign-in lives", () => {
  const currentUser = (token: string) => send({ method: 'GET', url: '/v1/currentUser' }, token);

  test('refuses a token that names no sign-in (no gid) with 401, every time: the principal cache does not let it through', async () => {
    const { gid: _none, ...withoutSignIn } = adminClaims();
    const token = await signWithPortalKey(withoutSignIn);
    expect((await currentUser(token)).status).toBe(401);
    expect((await currentUser(token)).status).toBe(401);
  });

  test('refuses a token whose gid names no live sign-in with 401', async () => {
    expect((await currentUser(await signWithPortalKey({ ...adminClaims(), gid: randomUUID() }))).status).toBe(401);
  });

  test("refuses a token that names another user's live sign-in with 401", async () => {
    const enduserGrant = grantOf(await portal.token('enduser'));
    expect((await currentUser(await portal.token('enduser'))).status).toBe(200);
    expect((await currentUser(await signWithPortalKey({ ...adminClaims(), gid: enduserGrant }))).status).toBe(401);
  });

  test('accepts a minted token while its sign-in lives, and refuses it, cached or not, once that sign-in ends', async () => {
    const { keys, provider } = portal.runtime;
    if (!keys || !provider) throw new Error('No embedded identity provider');
    const token = await mintAccessToken({ config: portal.config, keys, provider }, 'operator');
    expect((await currentUser(token)).status).toBe(200);
    expect((await currentUser(token)).status).toBe(200);
    await provider.Grant.adapter.destroy(grantOf(token));
    await portal.runtime.principals.sync();
    expect((await currentUser(token)).status).toBe(401);
  });
});

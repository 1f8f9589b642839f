import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO } from '../src/db/demo-ids.js';
import { NUL_MESSAGE } from '../src/http/strict-bodies.js';
import { EXPECTED_ACCESS } from './expected-access.js';
import { createTokenAs, createWorkUnitAs } from './factories.js';
import { reportFigures } from './figures.js';
import { createTestPortal, type TestPortal } from './harness.js';
import { BODIES, MULTIPART, objectsOf, probe, type Objects, type ProbedRoute } from './route-probes.js';

/*
 * Request bodies are strict (issue 35): every write operation of the API document, called with the
 * body its probe sends (the areas' route-probes.ts) and one member nobody declared, answers 400
 * naming that member; so does a route that takes no body, sent one. The body is checked before the
 * handler runs, so the walk writes nothing.
 */

const UNKNOWN = 'notARealField';
const WRITES = ['post', 'put', 'patch', 'delete'] as const;

/** Write operations the walk leaves out, and why. */
const LEFT_OUT: Readonly<Record<string, string>> = {
  'PUT /v1/controlsets':
    "the body is a control set file (an OSCAL catalog or the portal's own JSON form), read as its format says",
};

let portal: TestPortal;
let o: Objects;
let deviceHeaders: Record<string, string>;
let tokenHeaders: Record<string, string>;
let adminHeaders: Record<string, string>;
let operations: ProbedRoute[] = [];

beforeAll(async () => {
  portal = await createTestPortal({ FEATURES: 'I3ERequestForm' });
  o = await objectsOf(portal, DEMO.contoso, DEMO.contosoProduction, 'admin');
  const token = await createTokenAs(portal, 'admin', DEMO.contoso);
  deviceHeaders = { authorization: `Bearer ${o.agentCredential}` };
  tokenHeaders = { authorization: `Bearer ${token.generatedToken}` };
  adminHeaders = { authorization: `Bearer ${await portal.token('admin')}` };
  const document = portal.app.swagger() as { paths?: Record<string, Partial<Record<string, unknown>>> };
  operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    WRITES.filter((method) => item[method] !== undefined).map((method) => ({
      method: method.toUpperCase(),
      url: path.replace(/\{(\w+)\}/g, ':$1'),
    })),
  );
}, 120_000);

afterAll(async () => {
  await portal?.close();
});

/** The caller the route lets in: a device or a tenant API token for the machine routes, else the administrator. */
function callerOf(key: string): Record<string, string> {
  const access = EXPECTED_ACCESS[key];
  if (access === 'public') return {};
  if (typeof access === 'object' && 'machine' in access)
    return access.machine.includes('device') ? deviceHeaders : tokenHeaders;
  return adminHeaders;
}

/** The probe's body with the unknown member: on the object, or on a list's first item (a JSON Patch operation). */
function withUnknown(body: unknown): { body: unknown; field: string } {
  if (Array.isArray(body) && typeof body[0] === 'object' && body[0] !== null)
    return { body: [{ ...(body[0] as object), [UNKNOWN]: 1 }, ...body.slice(1)], field: `0.${UNKNOWN}` };
  if (typeof body === 'object' && body !== null && !Array.isArray(body))
    return { body: { ...body, [UNKNOWN]: 1 }, field: UNKNOWN };
  // A route that takes no body: the member is all it is sent.
  return { body: { [UNKNOWN]: 1 }, field: UNKNOWN };
}

/** The answer's errors, by field. */
const errorsOf = (response: LightMyRequestResponse) =>
  (response.json<{ errors?: Record<string, string[]> }>().errors ?? {}) as Record<string, string[]>;

/** Whether an error names the field under its own key (`0.notARealField`; a packet's item `1.notARealField`). */
const names = (errors: Record<string, string[]>, field: string) =>
  Object.entries(errors).some(
    ([key, messages]) => (key === field || key.endsWith(`.${field}`)) && messages.some((text) => text.includes(field)),
  );

describe('strict request bodies', () => {
  test('every write operation of the API document refuses an unknown member with a 400 that names it', async () => {
    const problems: string[] = [];
    let walked = 0;
    for (const route of operations) {
      const key = `${route.method} ${route.url}`;
      if (LEFT_OUT[key]) continue;
      walked += 1;
      const headers = callerOf(key);
      const response =
        key in MULTIPART
          ? await probe(portal.app, route, o, headers, { form: (fields) => ({ ...fields, [UNKNOWN]: 'x' }) })
          : await probe(portal.app, route, o, headers, { body: (body) => withUnknown(body).body });
      const field = key in MULTIPART ? UNKNOWN : withUnknown(BODIES[key]?.(o)).field;
      if (response.statusCode !== 400 || !names(errorsOf(response), field)) {
        problems.push(`${key} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
        continue;
      }
      // The probe's body is otherwise one the route takes: the unknown member is the only problem.
      const others = Object.keys(errorsOf(response)).filter((name) => !name.endsWith(field));
      if (others.length > 0) problems.push(`${key} also refused ${others.join(', ')}: ${response.body.slice(0, 300)}`);
    }
    reportFigures('strict bodies', {
      'write operations': operations.length,
      walked,
      'without a body of their own': operations.filter((route) => {
        const key = `${route.method} ${route.url}`;
        return !(key in MULTIPART) && BODIES[key]?.(o) === undefined;
      }).length,
      'left out': Object.keys(LEFT_OUT).length,
    });
    expect(operations.length).toBeGreaterThan(80);
    expect(problems).toEqual([]);
    // Nothing is left out that the document no longer has.
    const keys = new Set(operations.map((route) => `${route.method} ${route.url}`));
    expect(Object.keys(LEFT_OUT).filter((key) => !keys.has(key))).toEqual([]);
  });

  test('a route that takes no body takes none or an empty object, and refuses anything else', async () => {
    const token = await createTokenAs(portal, 'admin', DEMO.contoso);
    const revoke = (payload?: unknown) =>
      portal.as('admin', {
        method: 'PUT',
        url: `/v1/tokens/${token.tokenGrantId}/revoke`,
        ...(payload === undefined
          ? {}
          : { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }),
      });
    expect((await revoke({ reason: 'leaked', by: 'me' })).json()).toEqual({
      message: 'One or more validation errors occurred.',
      errors: { reason: ['Unknown field "reason".'], by: ['Unknown field "by".'] },
    });
    expect((await revoke(['x'])).json()).toEqual({
      message: 'This request takes no body.',
      errors: { request: ['This request takes no body.'] },
    });
    expect((await revoke({})).statusCode).toBe(200);
    expect((await revoke()).statusCode).toBe(200);
  });

  test('a NUL character in the text of a body is refused naming its field, at any depth; the text \\u0000 is just text', async () => {
    const silence = (note: string) =>
      portal.as('operator', {
        method: 'PUT',
        url: '/v1/silences',
        payload: {
          tenantId: DEMO.contoso,
          label: 'Pump 7',
          starts: new Date().toISOString(),
          ends: new Date(Date.now() + 60_000).toISOString(),
          note,
        },
      });
    expect((await silence('on site\u0000')).json()).toEqual({
      message: 'One or more validation errors occurred.',
      errors: { note: [NUL_MESSAGE] },
    });
    const nested = await portal.as('admin', {
      method: 'PUT',
      url: `/v1/servicelevels/${DEMO.contoso}`,
      payload: { timeZone: 'UTC', businessHours: null, holidays: ['2026-12-25\u0000'], pauseStates: [], targets: [] },
    });
    expect(nested.json()).toEqual({
      message: 'One or more validation errors occurred.',
      errors: { 'holidays.0': [NUL_MESSAGE] },
    });
    // A JSON Patch document too (a PATCH of a work unit), its operation's value named.
    const unit = await createWorkUnitAs(portal, 'operator', DEMO.contoso);
    const patched = await portal.as('operator', {
      method: 'PATCH',
      url: `/v1/workunits/${unit.workUnitId}`,
      headers: { 'content-type': 'application/json-patch+json' },
      payload: JSON.stringify([{ op: 'replace', path: '/title', value: 'Printer\u0000' }]),
    });
    expect(patched.json()).toEqual({
      message: 'One or more validation errors occurred.',
      errors: { '0.value': [NUL_MESSAGE] },
    });
    const text = await silence('path C:\\u0000');
    expect(text.statusCode, text.body).toBe(200);
    expect(text.json<{ note: string }>().note).toBe('path C:\\u0000');
  });
});

import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { EXPECTED_ACCESS } from './expected-access.js';
import { createTestPortal, registeredRoutes, type TestPortal } from './harness.js';

let portal: TestPortal;
const routes: RouteOptions[] = [];

beforeAll(async () => {
  portal = await createTestPortal();
  routes.push(...(await registeredRoutes(portal)));
});
afterAll(async () => {
  await portal?.close();
});

const permissionOf = (route: RouteOptions) => (route.config as { permission?: unknown } | undefined)?.permission;
const label = (route: RouteOptions) => `${String(route.method)} ${route.url}`;

describe('every route declares the permission it needs', () => {
  it('walks every registered route and finds none without a declared permission', () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(routes.filter((route) => !permissionOf(route)).map(label)).toEqual([]);
  });

  it('declares public only routes that expected-access.ts expects public (health, sign-in, identity provider, docs)', () => {
    // The matrix holds every route's answers to that table; this names a route made public by mistake
    // without a run of the matrix. A HEAD route without an entry of its own follows its GET.
    const expectedOf = (method: string, url: string) =>
      EXPECTED_ACCESS[`${method} ${url}`] ?? (method === 'HEAD' ? EXPECTED_ACCESS[`GET ${url}`] : undefined);
    const unexpected = routes
      .filter((route) => permissionOf(route) === 'public')
      .flatMap((route) =>
        (Array.isArray(route.method) ? route.method : [route.method]).map((method) => ({ method, url: route.url })),
      )
      .filter(({ method, url }) => expectedOf(method, url) !== 'public');
    expect(unexpected.map(({ method, url }) => `${method} ${url}`)).toEqual([]);
    expect(routes.filter((route) => permissionOf(route) === 'public').map(label)).toContain('GET /healthz');
  });

  it('refuses to start with a route that declares no permission', async () => {
    const { runtime } = portal;
    const app = await buildApp({ ...runtime, logger: false });
    expect(() => app.get('/v1/undeclared', async () => 'nothing')).toThrow(/declares no permission/);
    await app.close();
  });

  it('refuses to start with a route that declares a permission outside the vocabulary', async () => {
    const { runtime } = portal;
    const app = await buildApp({ ...runtime, logger: false });
    // A declaration the types did not see (parsed, as from JavaScript): the gate still refuses it.
    const config = JSON.parse('{ "permission": "Locations:peek" }');
    expect(() => app.route({ method: 'GET', url: '/v1/misspelt', config, handler: async () => 'nothing' })).toThrow(
      /unknown permission 'Locations:peek'/,
    );
    await app.close();
  });
});

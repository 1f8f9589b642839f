import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isListedPublic } from '../src/auth/gate.js';
import { buildApp } from '../src/app.js';
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

  it('finds public routes only in the explicit list (health, sign-in configuration, identity provider, docs, web files)', () => {
    const publicRoutes = routes.filter((route) => permissionOf(route) === 'public');
    const unlisted = publicRoutes.filter((route) => !(Array.isArray(route.method) ? route.method : [route.method]).every((method) => isListedPublic(method, route.url)));
    expect(unlisted.map(label)).toEqual([]);
    expect(publicRoutes.map(label)).toContain('GET /healthz');
  });

  it('refuses to start with a route that declares no permission', async () => {
    const { runtime } = portal;
    const app = await buildApp({ ...runtime, logger: false });
    expect(() => app.get('/v1/undeclared', async () => 'nothing')).toThrow(/declares no permission/);
    await app.close();
  });

  it('refuses to start with a public route outside the list', async () => {
    const { runtime } = portal;
    const app = await buildApp({ ...runtime, logger: false });
    expect(() => app.get('/v1/sneaky', { config: { permission: 'public' } }, async () => 'nothing')).toThrow(/not in the list of public routes/);
    await app.close();
  });
});

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestPortal, registeredRoutes, type TestPortal } from './harness.js';
import { AREA_PROBES, BODIES, MULTIPART, NOT_TENANT_BOUND, QUERIES } from './route-probes.js';

/*
 * The matrix's probes live beside their areas (src/areas/<area>/route-probes.ts); the matrix fails
 * on a route without the probe it needs. This holds the other direction: a probe names a route that
 * is registered, so one left behind by a renamed or removed route is found.
 */
let portal: TestPortal;
const registered = new Set<string>();

beforeAll(async () => {
  portal = await createTestPortal();
  for (const route of await registeredRoutes(portal))
    for (const method of Array.isArray(route.method) ? route.method : [route.method])
      registered.add(`${method} ${route.url}`);
});
afterAll(async () => {
  await portal?.close();
});

describe('route probes', () => {
  test('are found in the areas’ folders', () => {
    expect(AREA_PROBES.map(({ area }) => area)).toEqual(expect.arrayContaining(['locations', 'tenants', 'workunits']));
  });

  test('each name a registered route', () => {
    const keys = [...Object.keys(BODIES), ...Object.keys(MULTIPART), ...Object.keys(QUERIES), ...NOT_TENANT_BOUND];
    expect(keys.filter((key) => !registered.has(key))).toEqual([]);
  });
});

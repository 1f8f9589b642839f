import Fastify, { type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { registerItemRoutes } from './item-routes.js';

const app = Fastify();
const routes: RouteOptions[] = [];
const calls: unknown[][] = [];
const item = z.object({ id: z.number().int(), name: z.string() });
const caller = { userName: 'ada' } as Principal;

beforeAll(async () => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request) => {
    request.principal = caller;
  });
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  await app.register(async (scope) => {
    registerItemRoutes(scope, {
      path: '/v1/things',
      name: { operation: 'Thing', words: 'a thing' },
      area: 'Locations',
      tags: ['Things'],
      params: z.object({ thingId: z.coerce.number().int() }),
      key: 'thingId',
      item,
      input: { create: z.object({ name: z.string(), kind: z.string() }), update: z.object({ name: z.string() }) },
      get: async (user, { thingId }) => {
        calls.push(['get', user.userName, thingId]);
        return { id: thingId, name: 'Got' };
      },
      create: async (user, input) => {
        calls.push(['create', user.userName, input]);
        return { id: 1, name: input.name };
      },
      update: async (user, { thingId }, input) => {
        calls.push(['update', user.userName, thingId, input]);
        return { id: thingId, name: input.name };
      },
      own: { get: { permission: ['Locations:view', 'Devices:view'] }, update: { summary: 'Rename a thing' } },
    });
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

describe('registerItemRoutes', () => {
  test('declares each route it has a handler for, with the area’s permission, an operation id and a summary from the name', () => {
    // Fastify adds a HEAD route beside each GET of its own.
    const declared = routes
      .filter((route) => route.method !== 'HEAD')
      .map((route) => ({
        method: route.method,
        url: route.url,
        permission: route.config?.permission,
        operationId: (route.schema as { operationId?: string }).operationId,
        summary: (route.schema as { summary?: string }).summary,
        tags: (route.schema as { tags?: string[] }).tags,
      }));
    expect(declared).toEqual([
      {
        method: 'GET',
        url: '/v1/things/:thingId',
        permission: ['Locations:view', 'Devices:view'],
        operationId: 'getThing',
        summary: 'Get a thing',
        tags: ['Things'],
      },
      {
        method: 'PUT',
        url: '/v1/things',
        permission: 'Locations:create',
        operationId: 'createThing',
        summary: 'Create a thing',
        tags: ['Things'],
      },
      {
        method: 'POST',
        url: '/v1/things/:thingId',
        permission: 'Locations:edit',
        operationId: 'updateThing',
        summary: 'Rename a thing',
        tags: ['Things'],
      },
    ]);
  });

  test('hands each handler the caller, the parsed parameters and the body of its own schema, and answers the item', async () => {
    calls.length = 0;
    const got = await app.inject({ method: 'GET', url: '/v1/things/7' });
    expect(got.json()).toEqual({ id: 7, name: 'Got' });
    const made = await app.inject({ method: 'PUT', url: '/v1/things', payload: { name: 'New', kind: 'k' } });
    expect(made.json()).toEqual({ id: 1, name: 'New' });
    const saved = await app.inject({ method: 'POST', url: '/v1/things/7', payload: { name: 'Renamed' } });
    expect(saved.json()).toEqual({ id: 7, name: 'Renamed' });
    expect(calls).toEqual([
      ['get', 'ada', 7],
      ['create', 'ada', { name: 'New', kind: 'k' }],
      ['update', 'ada', 7, { name: 'Renamed' }],
    ]);
    // The create body's schema is not the update's.
    expect((await app.inject({ method: 'PUT', url: '/v1/things', payload: { name: 'No kind' } })).statusCode).toBe(400);
    expect(calls).toHaveLength(3);
  });

  test('declares no delete without one', async () => {
    expect((await app.inject({ method: 'DELETE', url: '/v1/things/7' })).statusCode).toBe(404);
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineArea } from '../area.js';
import { loadConfig } from '../config.js';
import { apiDocumentOptions, nextApiVersion, type OpenApiDocument } from './api-document.js';
import { registerDeprecationHeaders } from './deprecation.js';
import { exampleOf, type JsonSchema } from './json-schema-example.js';

const paths = (...operations: string[]) => {
  const document: { paths: Record<string, Record<string, object>> } = { paths: {} };
  for (const operation of operations) {
    const [method = '', url = ''] = operation.split(' ');
    (document.paths[url] ??= {})[method.toLowerCase()] = {};
  }
  return document;
};

describe('the API version', () => {
  it('rises in its minor number when operations are added or changed', () => {
    expect(nextApiVersion('1.4.0', paths('GET /v1/a'), paths('GET /v1/a', 'PUT /v1/a'))).toBe('1.5.0');
    expect(nextApiVersion('1.4.0', paths('GET /v1/a'), paths('GET /v1/a'))).toBe('1.5.0');
  });

  it('rises in its major number when an operation is gone, which breaks its clients', () => {
    expect(nextApiVersion('1.4.0', paths('GET /v1/a', 'PUT /v1/a'), paths('GET /v1/a'))).toBe('2.0.0');
  });
});

describe('request body examples', () => {
  it('fill every property with a value its schema accepts', () => {
    const schema: JsonSchema = {
      type: 'object',
      required: ['name', 'tenantId', 'interval', 'every'],
      properties: {
        name: { type: 'string', minLength: 3, maxLength: 200 },
        tenantId: { type: 'string', format: 'uuid' },
        interval: { type: 'string', pattern: '^(\\d{2,}):([0-5]\\d):([0-5]\\d)$' },
        every: { type: 'integer', exclusiveMinimum: 0, maximum: 60 },
        color: { type: 'string', enum: ['Green', 'Red'] },
        note: { anyOf: [{ type: 'null' }, { type: 'string' }] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
      },
    };
    expect(exampleOf(schema)).toEqual({
      name: 'Example name',
      tenantId: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      interval: '01:00:00',
      every: 1,
      color: 'Green',
      note: 'Example note',
      tags: ['Example tags', 'Example tags'],
    });
  });

  it('are left out when no simple value satisfies the schema', () => {
    expect(exampleOf({ type: 'string', pattern: '^[A-Z]{3}-\\d{9}$' })).toBeUndefined();
    expect(exampleOf({})).toBeUndefined();
  });
});

describe('the document of a small app', () => {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  let document: OpenApiDocument;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfs-api-document-'));
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerDeprecationHeaders(app);
    const area = defineArea({ name: 'rooms', apiTags: { Rooms: 'Where meetings are.' } });
    await app.register(
      swagger,
      apiDocumentOptions(loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'https://portal.contoso.example' }), [area]),
    );
    const schema = { tags: ['Rooms'], params: z.object({ id: z.uuid() }) };
    app.get(
      '/v1/rooms/:id',
      {
        config: { permission: 'Locations:view' },
        schema: { ...schema, operationId: 'getRoom', summary: 'Get a room' },
      },
      async () => ({}),
    );
    app.post(
      '/v1/rooms/:id/book',
      {
        config: {
          permission: 'Locations:edit',
          deprecation: { since: '2026-12-01', sunset: '2027-06-01', successor: '/v1/bookings' },
        },
        schema: {
          ...schema,
          operationId: 'bookRoom',
          summary: 'Book a room',
          body: z.object({ hours: z.int().min(1) }),
        },
      },
      async () => ({}),
    );
    app.get('/v1/open', { config: { permission: 'public' }, schema: { tags: ['Rooms'] } }, async () => ({}));
    app.post(
      '/v1/rooms/readings',
      {
        config: { permission: 'public', documentedBody: z.array(z.object({ celsius: z.number().min(-50) })) },
        schema: { tags: ['Rooms'] },
      },
      async (request) => ({ read: Array.isArray(request.body) ? 'a list' : typeof request.body }),
    );
    await app.ready();
    document = app.swagger() as unknown as OpenApiDocument;
  });

  afterAll(async () => {
    await app.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('says who may call each operation, and with which credential', () => {
    const get = document.paths?.['/v1/rooms/{id}']?.get;
    expect(get?.description).toBe(
      'Who may call it: A signed-in user with the permission Locations view, within the tenants they may work in.',
    );
    expect(get?.security).toEqual([{ bearer: [] }]);
    expect(document.paths?.['/v1/open']?.get?.security).toEqual([]);
  });

  it('lists the error answers an operation may give, with the one error body', () => {
    expect(Object.keys(document.paths?.['/v1/rooms/{id}']?.get?.responses ?? {}).sort()).toEqual(
      ['200', '400', '401', '403', '404', '429'].sort(),
    );
    expect(Object.keys(document.paths?.['/v1/rooms/{id}/book']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['409', '413']),
    );
    expect(document.paths?.['/v1/rooms/{id}']?.get?.responses?.['404']).toEqual({
      $ref: '#/components/responses/NotFound',
    });
    expect(document.components?.schemas?.Error).toMatchObject({ required: ['message'] });
  });

  it('gives request bodies an example, the tags their area’s description and PUBLIC_URL as its server', () => {
    expect(document.paths?.['/v1/rooms/{id}/book']?.post?.requestBody?.content?.['application/json']?.example).toEqual({
      hours: 1,
    });
    expect(document.tags).toEqual([{ name: 'Rooms', description: 'Where meetings are.' }]);
    expect(document.servers?.[0]).toMatchObject({
      url: '{publicUrl}',
      variables: { publicUrl: { default: 'https://portal.contoso.example' } },
    });
  });

  it('marks a deprecated route, whose answers carry Deprecation, Sunset and its successor', async () => {
    const book = document.paths?.['/v1/rooms/{id}/book']?.post;
    expect(book?.deprecated).toBe(true);
    expect(book?.description).toContain(
      'Deprecated since 2026-12-01; answers until 2027-06-01: use /v1/bookings instead.',
    );
    const answer = await app.inject({
      method: 'POST',
      url: '/v1/rooms/3fa85f64-5717-4562-b3fc-2c963f66afa6/book',
      payload: { hours: 2 },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers.deprecation).toBe(`@${Date.UTC(2026, 11, 1) / 1000}`);
    expect(answer.headers.sunset).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(answer.headers.link).toBe('</v1/bookings>; rel="successor-version"');
    const current = await app.inject({ method: 'GET', url: '/v1/rooms/3fa85f64-5717-4562-b3fc-2c963f66afa6' });
    expect(current.headers.deprecation).toBeUndefined();
  });

  it('describes a body the handler reads itself, without validating it', async () => {
    expect(document.paths?.['/v1/rooms/readings']?.post?.requestBody?.content?.['application/json']?.example).toEqual([
      { celsius: -50 },
    ]);
    const answer = await app.inject({ method: 'POST', url: '/v1/rooms/readings', payload: { celsius: 'warm' } });
    expect(answer.json()).toEqual({ read: 'object' });
  });

  it('refuses a tag no area describes', async () => {
    const other = Fastify().withTypeProvider<ZodTypeProvider>();
    other.setValidatorCompiler(validatorCompiler);
    other.setSerializerCompiler(serializerCompiler);
    await other.register(swagger, apiDocumentOptions(loadConfig({ DATA_DIR: dataDir }), []));
    other.get('/v1/x', { config: { permission: 'public' }, schema: { tags: ['Nobody'] } }, async () => ({}));
    await other.ready();
    expect(() => other.swagger()).toThrow("The API tag 'Nobody' is described by no area");
    await other.close();
  });
});

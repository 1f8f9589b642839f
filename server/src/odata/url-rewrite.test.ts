import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ListQueryError } from './list-query-error.js';
import { rewriteODataUrl } from './url-rewrite.js';

describe('rewriteODataUrl', () => {
  test.each([
    ['/v1/tenants(3f2504e0-4f89-11d3-9a0c-0305e82c3301)', '/v1/tenants/3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
    ["/v1/tenants('3f2504e0-4f89-11d3-9a0c-0305e82c3301')", '/v1/tenants/3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
    ['/v1/workunits(42)?$expand=tenant', '/v1/workunits/42?$expand=tenant'],
    ["/v1/blocks('it''s%20a%2Fb')", "/v1/blocks/it's%20a%2Fb"],
    ['/v1/blocks(%27a%20b%27)', '/v1/blocks/a%20b'],
    ['/v1/workunits/GetWorkUnitHistoryRecords(workUnitId=5)', '/v1/workunits/GetWorkUnitHistoryRecords?workUnitId=5'],
    [
      '/v1/operations/GetAvailableOperationsForDevice(tenantId=3f2504e0-4f89-11d3-9a0c-0305e82c3301,operatingSystemId=1)?$top=10',
      '/v1/operations/GetAvailableOperationsForDevice?$top=10&tenantId=3f2504e0-4f89-11d3-9a0c-0305e82c3301&operatingSystemId=1',
    ],
    ["/v1/x/Find(name='a,b&c=d', n = 2)", '/v1/x/Find?name=a%2Cb%26c%3Dd&n=2'],
    ['/v1/workunits/Export()', '/v1/workunits/Export'],
    ['/v1/workunits/Export()?$filter=a%20eq%201', '/v1/workunits/Export?$filter=a%20eq%201'],
    // Only a last segment shaped Name(...) is rewritten.
    ['/v1/tenants(5)/subscriptions', '/v1/tenants(5)/subscriptions'],
    ['/v1/tenants?$filter=contains(name,%27x%27)', '/v1/tenants?$filter=contains(name,%27x%27)'],
    ['/v1/tenants', '/v1/tenants'],
    ['/', '/'],
    // Malformed: left alone, so the router answers 404.
    ["/v1/tenants('open)", "/v1/tenants('open)"],
    ['/v1/x/F(a=1,=2)', '/v1/x/F(a=1,=2)'],
    ["/v1/tenants('')", "/v1/tenants('')"],
    ['/v1/x/F(%E0%A4%A)', '/v1/x/F(%E0%A4%A)'],
  ])('%s → %s', (url, expected) => {
    expect(rewriteODataUrl(url)).toBe(expected);
  });
});

describe('OData-style paths through Fastify', () => {
  const app = Fastify({ rewriteUrl: (request) => rewriteODataUrl(request.url ?? '/') });

  beforeAll(async () => {
    app.get<{ Params: { id: string } }>('/v1/tenants/:id', async (request) => ({ id: request.params.id }));
    app.get('/v1/workunits/GetWorkUnitHistoryRecords', async (request) => ({ query: request.query }));
    app.get('/v1/operations/GetAvailableOperationsForDevice', async (request) => ({ query: request.query }));
    app.get('/v1/workunits/Export', async () => 'csv');
    app.post('/v1/controlsets/Export', async (request) => ({ body: request.body }));
    app.get('/v1/failing', async () => {
      throw new ListQueryError("Unknown field 'foo' in $filter");
    });
    await app.ready();
  });
  afterAll(() => app.close());

  test('routes declared in canonical form answer the OData form', async () => {
    const tenantId = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
    expect((await app.inject({ url: `/v1/tenants(${tenantId})` })).json()).toEqual({ id: tenantId });
    expect((await app.inject({ url: `/v1/tenants('${tenantId}')` })).json()).toEqual({ id: tenantId });
    expect((await app.inject({ url: '/v1/workunits/GetWorkUnitHistoryRecords(workUnitId=5)' })).json()).toEqual({
      query: { workUnitId: '5' },
    });
    expect(
      (
        await app.inject({
          url: `/v1/operations/GetAvailableOperationsForDevice(tenantId=${tenantId},operatingSystemId=1)?$top=10`,
        })
      ).json(),
    ).toEqual({ query: { $top: '10', tenantId, operatingSystemId: '1' } });
    expect((await app.inject({ url: '/v1/workunits/Export()' })).body).toBe('csv');
    const post = await app.inject({
      method: 'POST',
      url: '/v1/controlsets/Export()',
      payload: { startDate: '2024-01-01', tenantId },
    });
    expect(post.json()).toEqual({ body: { startDate: '2024-01-01', tenantId } });
  });

  test('a ListQueryError answers 400 with its message even under the default error handler', async () => {
    const response = await app.inject({ url: '/v1/failing' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: "Unknown field 'foo' in $filter" });
  });
});

import { LIST_COUNT_CAP, MAX_SKIP } from '@cfs/contracts/constants';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTenantAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

/*
 * Deep pages and counts through the real list routes: `@odata.nextLink` continues a list where its
 * page ended, `$skip` stops at its cap with a pointer to the link, and a count past the cap says so.
 */
interface Answer {
  '@odata.count'?: number;
  '@cfs.countIsLowerBound'?: true;
  value: { workUnitId: number; tenant?: { name: string } }[];
  '@odata.nextLink'?: string;
}

let portal: TestPortal;
/** A tenant of the test's own, holding the units below. */
let tenant: { tenantId: string; name: string };
/** The tenant's units beyond the cap, with ties in `created` (ten a minute) and NULLs in `assignedTo`. */
const LOADED = LIST_COUNT_CAP + 40;

beforeAll(async () => {
  portal = await createTestPortal();
  tenant = await createTenantAs(portal, 'admin');
  await sql`
    INSERT INTO work_unit (tenant_id, work_unit_type_id, title, severity_id, state_id, assigned_to, created, modified)
    SELECT ${tenant.tenantId}::uuid, 1, 'Paged unit ' || g, g % 4, 1, CASE WHEN g % 3 = 0 THEN NULL ELSE 'user' || g % 7 || '@example.com' END,
           timestamptz '2026-01-01' - (g / 10) * interval '1 minute', now()
    FROM generate_series(1, ${LOADED}) AS g`.execute(portal.db);
  await sql`ANALYZE work_unit`.execute(portal.db);
}, 60_000);
afterAll(() => portal?.close());

const get = async (url: string) => {
  const response = await portal.as('admin', { method: 'GET', url });
  return { status: response.statusCode, body: response.json<Answer & { message?: string }>() };
};
const list = (query: Record<string, string>) => `/v1/workunits?${new URLSearchParams(query).toString()}`;

describe('paging a list', () => {
  test('@odata.nextLink is the same request from the row after the page: its pages are the $skip pages, expansions included', async () => {
    const query = {
      $top: '25',
      $orderby: 'assignedTo asc,created desc',
      $filter: "contains(title,'Paged unit 1')",
      $expand: 'tenant',
      $count: 'true',
    };
    let url = list(query);
    const walked: number[] = [];
    for (let page = 0; page < 3; page++) {
      const { status, body } = await get(url);
      expect(status).toBe(200);
      const bySkip = await get(list({ ...query, $skip: String(page * 25) }));
      expect(body.value).toEqual(bySkip.body.value);
      expect(body.value.every((row) => row.tenant?.name === tenant.name)).toBe(true);
      expect(body['@odata.count']).toBe(bySkip.body['@odata.count']);
      walked.push(...body.value.map((row) => row.workUnitId));
      const next = body['@odata.nextLink'] ?? '';
      expect(next).toMatch(/^\/v1\/workunits\?.*\$skiptoken=[\w-]+$/);
      expect(next).not.toContain('$skip=');
      url = next;
    }
    expect(new Set(walked).size).toBe(75);
  });

  test('a list longer than the cap counts to the cap and says there are more; a narrower filter counts exactly', async () => {
    const { body } = await get(list({ $top: '10', $count: 'true', $filter: `tenantId eq ${tenant.tenantId}` }));
    expect(body['@odata.count']).toBe(LIST_COUNT_CAP);
    expect(body['@cfs.countIsLowerBound']).toBe(true);
    const narrow = await get(list({ $top: '10', $count: 'true', $filter: "startswith(title,'Paged unit 99')" }));
    expect(narrow.body['@odata.count']).toBe(111);
    expect(narrow.body).not.toHaveProperty('@cfs.countIsLowerBound');
  });

  test('the count is the same whether the page shows where the list ends or not, by $skip or by the token', async () => {
    const filter = "startswith(title,'Paged unit 99')";
    const counted = async (query: Record<string, string>) => {
      const { status, body } = await get(list({ $count: 'true', $filter: filter, ...query }));
      expect(status).toBe(200);
      return [body['@odata.count'], body.value.length];
    };
    // The page ends the list (skip plus its rows); a full page, one past the end and $top=0 ask the database.
    expect(await counted({ $top: '200' })).toEqual([111, 111]);
    expect(await counted({ $top: '50', $skip: '100' })).toEqual([111, 11]);
    expect(await counted({ $top: '50', $skip: '150' })).toEqual([111, 0]);
    expect(await counted({ $top: '50' })).toEqual([111, 50]);
    expect(await counted({ $top: '0' })).toEqual([111, 0]);
    expect(
      (await get(list({ $top: '10', $count: 'true', $filter: "title eq 'No such unit'" }))).body['@odata.count'],
    ).toBe(0);
    // The last page by the token: the count is the whole list's, not the rows after the token.
    const first = await get(list({ $top: '100', $count: 'true', $filter: filter }));
    const last = await get(first.body['@odata.nextLink']!);
    expect(last.body.value).toHaveLength(11);
    expect(last.body['@odata.count']).toBe(111);
  });

  test('$skip past the cap answers 400 naming the $skiptoken way; a broken or foreign token answers 400 too', async () => {
    const deep = await get(list({ $top: '10', $skip: String(MAX_SKIP + 10) }));
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe(
      `$skip must be at most ${MAX_SKIP}; for deeper pages follow @odata.nextLink, whose $skiptoken continues after the last row of a page`,
    );

    const broken = await get(list({ $top: '10', $skiptoken: 'eyJ4Ijoi' }));
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/^\$skiptoken is not valid: it is not a token this list made/);

    const first = await get(list({ $top: '10', $orderby: 'title' }));
    const token =
      new URL(first.body['@odata.nextLink'] ?? '', 'http://portal.test').searchParams.get('$skiptoken') ?? '';
    const foreign = await get(list({ $top: '10', $orderby: 'title desc', $skiptoken: token }));
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toMatch(/^\$skiptoken is not valid: it was made for another \$orderby/);
    const tenants = await get(`/v1/tenants?$top=10&$skiptoken=${token}`);
    expect(tenants.status).toBe(400);
  });

  test('past the $skip cap the next pages come by the token, as far as the list goes', async () => {
    // The last pages of the tenant's units, oldest first: reached from row 10,000 on by the token alone.
    const query = {
      $top: '100',
      $orderby: 'created desc',
      $filter: `tenantId eq ${tenant.tenantId}`,
      $select: 'workUnitId',
    };
    let url = list({ ...query, $skip: String(MAX_SKIP - 100) });
    const seen: number[] = [];
    for (;;) {
      const { status, body } = await get(url);
      expect(status).toBe(200);
      seen.push(...body.value.map((row) => row.workUnitId));
      if (!body['@odata.nextLink']) break;
      url = body['@odata.nextLink'];
    }
    const total = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM work_unit WHERE tenant_id = ${tenant.tenantId}::uuid`.execute(portal.db);
    expect(seen).toHaveLength(total.rows[0]!.n - (MAX_SKIP - 100));
    expect(new Set(seen).size).toBe(seen.length);
  });

  test('the work units Export All (no $top) writes every filtered unit, past the largest page, in the list order', async () => {
    const columns = JSON.stringify([
      { field: 'workUnitId', title: 'ID' },
      { field: 'title', title: 'Title' },
    ]);
    const query = { $filter: "contains(title,'Paged unit')", $orderby: 'workUnitId desc', columns };
    const response = await portal.as('admin', {
      method: 'GET',
      url: `/v1/workunits/Export?${new URLSearchParams(query).toString()}`,
    });
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const [header, ...lines] = response.body.trim().split('\n');
    expect(header).toBe('ID,Title');
    expect(lines).toHaveLength(LOADED);
    const ids = lines.map((line) => Number(line.split(',')[0]));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(LOADED);
    // Asked for with $top, it is that many (Export Page).
    const page = await portal.as('admin', {
      method: 'GET',
      url: `/v1/workunits/Export?${new URLSearchParams({ ...query, $top: '25' }).toString()}`,
    });
    expect(page.body.trim().split('\n')).toHaveLength(26);
  });
});

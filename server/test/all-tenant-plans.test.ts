import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { systemPrincipal } from '../src/auth/system-principal.js';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import type { DB as Database } from '../src/db/schema.js';
import { buildListSql, executeListStatement } from '../src/odata/list-query-sql.js';
import { parseListQuery } from '../src/odata/list-query.js';
import type { Resource } from '../src/odata/resource.js';
import { createTestPortal, registeredRoutes, type TestPortal } from './harness.js';

interface PlanNode {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Sort Key'?: string[];
  Plans?: PlanNode[];
}

/** The nodes that produce the statement's rows: its own, not those of a subquery run per row (an expansion, a lookup). */
function mainNodes(plan: PlanNode): PlanNode[] {
  const children = (plan.Plans ?? []).filter(
    (child) => child['Parent Relationship'] !== 'SubPlan' && child['Parent Relationship'] !== 'InitPlan',
  );
  return [plan, ...children.flatMap(mainNodes)];
}

type ListBaseOf = (principal: Principal) => SelectQueryBuilder<Database, keyof Database, unknown>;

/**
 * One tenant's lists that still sort, and why that is right for them: the sort is of a few rows,
 * never of the tenant's whole table.
 */
const ONE_TENANT_SORTS: Record<string, string> = {
  '/v1/protocolActions':
    "a tenant's own steps and the shared ones are two ranges (tenant_id IS NULL OR =); a protocol's handful of steps is read through its own index",
  '/v1/compliancereport': "each device's few installations, put in key order under the device name the index reads",
};

describe("an administrator's lists (every tenant)", () => {
  let portal: TestPortal;
  const lists: { url: string; resource: Resource; base: ListBaseOf }[] = [];
  const admin: Principal = {
    ...systemPrincipal(DEMO.contoso, { id: DEMO.contoso, name: 'Plan reader' }),
    tenantScope: ALL_TENANTS,
  };

  beforeAll(async () => {
    portal = await createTestPortal();
    for (const route of await registeredRoutes(portal)) {
      const config = route.config as { listResource?: Resource; listBase?: ListBaseOf } | undefined;
      if (String(route.method) === 'GET' && !route.url.endsWith('/Export') && config?.listResource && config.listBase)
        lists.push({ url: route.url, resource: config.listResource, base: config.listBase });
    }
  });
  afterAll(() => portal?.close());

  /**
   * The page's plan with sorting and whole-table scans priced out of reach: the planner then sorts
   * only where no index reads the rows in the asked order. The tables are small here, so without
   * that a sort of a few rows would always be cheapest and the plan would say nothing.
   */
  async function plan(statement: RawBuilder<unknown>): Promise<PlanNode[]> {
    return portal.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_sort = off`.execute(trx);
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const { rows } = await executeListStatement<Database, { 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        trx,
        sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>`EXPLAIN (FORMAT JSON) ${statement}`,
      );
      return mainNodes(rows[0]!['QUERY PLAN'][0].Plan);
    });
  }

  it('are walked: every list of the API is here', () => {
    expect(lists.map((list) => list.url)).toEqual(
      expect.arrayContaining(['/v1/rulematches', '/v1/actionHistories', '/v1/packets', '/v1/workunitcommunications']),
    );
  });

  /** The lists whose default page, read for `principal`, is sorted by a node of `sortNodes`. */
  async function sortedLists(principal: Principal, sortNodes: readonly string[]): Promise<string[]> {
    const sorted: string[] = [];
    for (const list of lists) {
      const { rows } = buildListSql(list.base(principal), parseListQuery(list.resource, {}), principal.tenantScope);
      const sorts = (await plan(rows)).filter((node) => sortNodes.includes(node['Node Type']));
      if (sorts.length > 0)
        sorted.push(
          `${list.url} (${sorts.map((node) => `${node['Node Type']} by ${node['Sort Key']?.join(', ')}`).join('; ')})`,
        );
    }
    return sorted;
  }

  it('read their default page in an index order, with no sort of the whole table', async () => {
    expect(await sortedLists(admin, ['Sort'])).toEqual([]);
  });

  it("read one tenant's default page in an index order: no sort, not even of the rows that tie on the order", async () => {
    const one: Principal = { ...admin, tenantScope: { kind: 'some', tenantIds: [DEMO.contoso] } };
    const sorted = await sortedLists(one, ['Sort', 'Incremental Sort']);
    expect(sorted.filter((line) => !Object.keys(ONE_TENANT_SORTS).some((url) => line.startsWith(`${url} `)))).toEqual(
      [],
    );
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workUnitsResource } from '../src/areas/workunits/resource.js';
import type { TenantScope } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { buildListSql } from '../src/odata/list-query-sql.js';
import { parseListQuery } from '../src/odata/list-query.js';
import { createTestPortal, type TestPortal } from './harness.js';

/**
 * The work units grid's default order (spec 001: severity ascending, newest first), with no filter
 * that another index could serve: the plan then turns on the tenant condition alone.
 */
const DEFAULT_LIST = { $top: '10', $skip: '0', $orderby: 'severityId asc,created desc' };

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe('list plans at scale', () => {
  let portal: TestPortal;
  let tenants: string[];
  beforeAll(async () => {
    portal = await createTestPortal();
    const { db } = portal;
    await sql`INSERT INTO tenant (name) SELECT 'Plan tenant ' || g FROM generate_series(1, 20) AS g`.execute(db);
    tenants = (await db.selectFrom('tenant').select('tenant_id').orderBy('name').execute()).map((row) => row.tenant_id);
    await sql`
      INSERT INTO work_unit (tenant_id, work_unit_type_id, title, severity_id, state_id, created, modified)
      SELECT (${sql.val(tenants)}::uuid[])[1 + g % ${tenants.length}], 1 + g % 3, 'Plan unit ' || g, g % 5, 1 + g % 8,
             now() - g * interval '1 minute', now()
      FROM generate_series(1, 60000) AS g`.execute(db);
    await sql`VACUUM ANALYZE work_unit`.execute(db);
  });
  afterAll(() => portal?.close());

  async function plan(scope: TenantScope): Promise<PlanNode[]> {
    const base = scoped(portal.db, scope).selectFrom('work_unit').selectAll();
    const { rows } = buildListSql(base, parseListQuery(workUnitsResource, DEFAULT_LIST), scope);
    const compiled = rows.compile(portal.db);
    const { rows: explained } = await portal.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({ ...compiled, sql: `EXPLAIN (FORMAT JSON) ${compiled.sql}` });
    return nodes(explained[0]!['QUERY PLAN'][0].Plan);
  }

  it("reads a one-tenant caller's default page in index order, with no sort of the tenant's rows", async () => {
    const found = await plan({ kind: 'some', tenantIds: [tenants[3]!] });
    expect(found.map((node) => `${node['Node Type']} ${node['Index Name'] ?? ''}`.trim()), JSON.stringify(found.map((node) => node['Node Type']))).not.toContain('Sort');
    expect(found.some((node) => node['Index Name'] === 'work_unit_tenant_sort_idx')).toBe(true);
  });
});

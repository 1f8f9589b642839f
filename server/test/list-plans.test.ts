import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workUnitsResource } from '../src/areas/workunits/resource.js';
import { ALL_TENANTS, type TenantScope } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { buildListSql, executeListStatement } from '../src/odata/list-query-sql.js';
import { parseListQuery } from '../src/odata/list-query.js';
import { workUnitSearch } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

/**
 * The work units grid's default order (spec 001: severity ascending, newest first), with no filter
 * that another index could serve: the plan then turns on the tenant condition alone.
 */
const DEFAULT_LIST = { $top: '10', $skip: '0', $orderby: 'severityId asc,created desc' };

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
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

  /** The plans of a list request's two statements, as the list route runs them (related keys looked up first). */
  async function plans(scope: TenantScope, query: Record<string, string> = DEFAULT_LIST): Promise<{ rows: PlanNode[]; count: PlanNode[] }> {
    const base = scoped(portal.db, scope).selectFrom('work_unit').selectAll();
    const statements = buildListSql(base, parseListQuery(workUnitsResource, { ...query, $count: 'true' }), scope);
    const explain = async (statement: RawBuilder<unknown>) => {
      const { rows } = await executeListStatement(portal.db, sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>`EXPLAIN (FORMAT JSON) ${statement}`);
      return nodes(rows[0]!['QUERY PLAN'][0].Plan);
    };
    return { rows: await explain(statements.rows), count: await explain(statements.count) };
  }

  const plan = async (scope: TenantScope) => (await plans(scope)).rows;
  const described = (found: PlanNode[]) => JSON.stringify(found.map((node) => `${node['Node Type']} ${node['Index Name'] ?? node['Relation Name'] ?? ''}`.trim()));

  it("reads a one-tenant caller's default page in index order, with no sort of the tenant's rows", async () => {
    const found = await plan({ kind: 'some', tenantIds: [tenants[3]!] });
    expect(found.map((node) => `${node['Node Type']} ${node['Index Name'] ?? ''}`.trim()), JSON.stringify(found.map((node) => node['Node Type']))).not.toContain('Sort');
    expect(found.some((node) => node['Index Name'] === 'work_unit_tenant_sort_idx')).toBe(true);
  });

  it("answers the grid's search through the trigram index, with the tenant name and id arms beside it, not by reading the list's rows", async () => {
    // The default list (state New, type Incident) and the search box's OR over every search field.
    const search = { ...DEFAULT_LIST, $filter: `stateId in (1) and workUnitTypeId in (1) and ${workUnitSearch('4242')}`, $expand: 'tenant,workUnitType' };
    for (const scope of [ALL_TENANTS, { kind: 'some', tenantIds: [tenants[3]!] } as const]) {
      const { rows, count } = await plans(scope, search);
      for (const found of [rows, count]) {
        expect(found.some((node) => node['Index Name'] === 'work_unit_search_idx'), described(found)).toBe(true);
        expect(found.some((node) => node['Node Type'] === 'BitmapOr'), described(found)).toBe(true);
        expect(found.some((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'work_unit'), described(found)).toBe(false);
        expect(found.some((node) => node['Index Name'] === 'work_unit_default_sort_idx' || node['Index Name'] === 'work_unit_tenant_sort_idx'), described(found)).toBe(false);
      }
    }
  });

  it('answers an Exact Match search through an index of each field (the tenant name as its tenants\' ids)', async () => {
    const { rows } = await plans(ALL_TENANTS, { ...DEFAULT_LIST, $filter: workUnitSearch('Plan unit 4242', true) });
    const indexes = ['title', 'reference', 'description', 'tenant_', 'assigned_to', 'stakeholder_name', 'stakeholder_phone', 'stakeholder_email'];
    for (const index of indexes.map((name) => `work_unit_${name}`)) {
      expect(rows.some((node) => node['Index Name']?.startsWith(index)), `${index}: ${described(rows)}`).toBe(true);
    }
    expect(rows.some((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'work_unit'), described(rows)).toBe(false);
  });
});

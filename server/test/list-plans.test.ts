import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workUnitsResource } from '../src/areas/workunits/resource.js';
import { ALL_TENANTS, type TenantScope } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { buildListSql, executeListStatement } from '../src/odata/list-query-sql.js';
import { parseListQuery, type ListQueryInput } from '../src/odata/list-query.js';
import { makeSkipToken } from '../src/odata/list-query-skip-token.js';
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
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Output?: string[];
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
    // Setting up the data is not a request: it runs without the requests' statement timeout,
    // which a busy machine can reach while 60,000 rows fill the search index.
    await db.connection().execute(async (connection) => {
      await sql`SET statement_timeout = 0`.execute(connection);
      await sql`
        INSERT INTO work_unit (tenant_id, work_unit_type_id, title, severity_id, state_id, created, modified)
        SELECT (${sql.val(tenants)}::uuid[])[1 + g % ${tenants.length}], 1 + g % 3, 'Plan unit ' || g, g % 5, 1 + g % 2,
               now() - g * interval '1 minute', now()
        FROM generate_series(1, 60000) AS g`.execute(connection);
      // ANALYZE reads a random sample of 300 rows per statistics target unit: at 400 it reads every
      // row (120,000 ≥ the 60,000 here and the portal's own), so the statistics, and the plans below,
      // are the same in every run. From a sample, one run in tens planned the one-tenant search from
      // the state index alone.
      await sql`SET default_statistics_target = 400`.execute(connection);
      await sql`VACUUM ANALYZE work_unit`.execute(connection);
      await sql`RESET default_statistics_target`.execute(connection);
      await sql`RESET statement_timeout`.execute(connection);
    });
  }, 180_000);
  afterAll(() => portal?.close());

  /** The plan of one statement as the list route runs it (related keys looked up first). */
  async function explain(statement: RawBuilder<unknown>, options = 'FORMAT JSON'): Promise<PlanNode[]> {
    const { rows } = await executeListStatement(
      portal.db,
      sql<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>`EXPLAIN (${sql.raw(options)}) ${statement}`,
    );
    return nodes(rows[0]!['QUERY PLAN'][0].Plan);
  }

  /** A list request's two statements (the count asked for). */
  function statements(scope: TenantScope, query: ListQueryInput) {
    const base = scoped(portal.db, scope).selectFrom('work_unit').selectAll();
    return buildListSql(base, parseListQuery(workUnitsResource, { ...query, $count: 'true' }), scope);
  }

  /** The plans of a list request's two statements. */
  async function plans(
    scope: TenantScope,
    query: ListQueryInput = DEFAULT_LIST,
  ): Promise<{ rows: PlanNode[]; count: PlanNode[] }> {
    const { rows, count } = statements(scope, query);
    return { rows: await explain(rows), count: await explain(count) };
  }

  /** The plan of a list request's page of rows. */
  const plan = (scope: TenantScope, query: ListQueryInput = DEFAULT_LIST, options = 'FORMAT JSON') =>
    explain(statements(scope, query).rows, options);
  const described = (found: PlanNode[]) =>
    JSON.stringify(
      found.map((node) => `${node['Node Type']} ${node['Index Name'] ?? node['Relation Name'] ?? ''}`.trim()),
    );

  /** Rows that passed through plan nodes building a JSON row (ANALYZE, VERBOSE): the rows turned into JSON. */
  const jsonRows = (found: PlanNode[]) =>
    found
      .filter((node) => node.Output?.some((output) => output.includes('json_build_object')))
      .map((node) => (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1));

  it("reads a one-tenant caller's default page in index order, with no sort of the tenant's rows", async () => {
    const found = await plan({ kind: 'some', tenantIds: [tenants[3]!] });
    expect(
      found.map((node) => `${node['Node Type']} ${node['Index Name'] ?? ''}`.trim()),
      JSON.stringify(found.map((node) => node['Node Type'])),
    ).not.toContain('Sort');
    expect(found.some((node) => node['Index Name'] === 'work_unit_tenant_sort_idx')).toBe(true);
  });

  it('builds JSON for the rows of page 500 only, not for the 5,000 rows skipped before it', async () => {
    const found = await plan(
      ALL_TENANTS,
      { ...DEFAULT_LIST, $skip: '5000', $expand: 'tenant,workUnitType' },
      'ANALYZE, VERBOSE, FORMAT JSON',
    );
    const built = jsonRows(found);
    expect(built.length).toBeGreaterThan(0);
    expect(Math.max(...built), JSON.stringify(built)).toBeLessThanOrEqual(10);
  });

  it('reads a page deep in the list after a $skiptoken through the index, as few rows as page 1', async () => {
    const parsed = parseListQuery(workUnitsResource, DEFAULT_LIST);
    // The row at position 50,000 in the default order, as a list answer's last row would carry it.
    const { rows } = await sql<{ after: string[] }>`
      SELECT ARRAY[severity_id::text, created::text, work_unit_id::text] AS after FROM work_unit
      ORDER BY severity_id, created DESC, work_unit_id DESC OFFSET 49999 LIMIT 1`.execute(portal.db);
    const $skiptoken = makeSkipToken(parsed, rows[0]!.after);
    const { $skip: _skip, ...rest } = DEFAULT_LIST;
    const found = await plan(ALL_TENANTS, { ...rest, $skiptoken }, 'ANALYZE, VERBOSE, FORMAT JSON');
    const scanned = found.filter(
      (node) => node['Node Type'].includes('Scan') && node['Index Name'] !== 'work_unit_pkey',
    );
    const read = scanned.reduce((sum, node) => sum + (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1), 0);
    expect(scanned.every((node) => node['Node Type'] !== 'Seq Scan')).toBe(true);
    // Each of the order's ranges stops at one page: a handful of pages' rows, not 50,000.
    expect(read).toBeLessThanOrEqual(40);
    expect(Math.max(...jsonRows(found))).toBeLessThanOrEqual(10);
  });

  it("answers the grid's search through the trigram index, with the tenant name and id arms beside it, not by reading the list's rows", async () => {
    // The default list (state New, type Incident: a sixth of the rows) and the search box's OR over
    // every search field, for a term one title holds. The planner guesses a LIKE's share of rows from
    // the sampled values: a term that many titles hold (say '4242') now and then falls in the sample
    // and is guessed a hundred times commoner than it is, which flips the plan to the state index.
    const search = {
      ...DEFAULT_LIST,
      $filter: `stateId in (1) and workUnitTypeId in (1) and ${workUnitSearch('42424')}`,
      $expand: 'tenant,workUnitType',
    };
    for (const scope of [ALL_TENANTS, { kind: 'some', tenantIds: [tenants[3]!] } as const]) {
      const { rows, count } = await plans(scope, search);
      for (const found of [rows, count]) {
        expect(
          found.some((node) => node['Index Name'] === 'work_unit_search_idx'),
          described(found),
        ).toBe(true);
        expect(
          found.some((node) => node['Node Type'] === 'BitmapOr'),
          described(found),
        ).toBe(true);
        expect(
          found.some((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'work_unit'),
          described(found),
        ).toBe(false);
        expect(
          found.some(
            (node) =>
              node['Index Name'] === 'work_unit_default_sort_idx' || node['Index Name'] === 'work_unit_tenant_sort_idx',
          ),
          described(found),
        ).toBe(false);
      }
    }
  });

  it("answers an Exact Match search through an index of each field (the tenant name as its tenants' ids)", async () => {
    const { rows } = await plans(ALL_TENANTS, { ...DEFAULT_LIST, $filter: workUnitSearch('Plan unit 4242', true) });
    // No tenant is named so: the tenant branch is an empty list of ids, which the planner may answer
    // from any small index (the protocol index, say) — never a scan, as the last line checks.
    const indexes = [
      'title',
      'reference',
      'description',
      'assigned_to',
      'stakeholder_name',
      'stakeholder_phone',
      'stakeholder_email',
    ];
    for (const index of indexes.map((name) => `work_unit_${name}`)) {
      expect(
        rows.some((node) => node['Index Name']?.startsWith(index)),
        `${index}: ${described(rows)}`,
      ).toBe(true);
    }
    expect(
      rows.some((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'work_unit'),
      described(rows),
    ).toBe(false);
  });
});

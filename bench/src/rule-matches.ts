import { sql } from 'kysely';
import { DEMO } from '../../server/src/db/demo-ids.js';
import { get, type BenchPortal } from './bench-portal.js';
import type { RecordFigure } from './fleet.js';
import { paired } from './measure.js';

/**
 * The rule matches list at `matches` matches over 20 tenants (Contoso's a twentieth of them), as
 * an administrator reads it (every tenant) against Contoso's operator (one tenant), default order
 * (newest first, 50 a page), with and without the count, in turns: an all-tenant page should cost
 * about what a tenant's does, read from an index in the list's order rather than sorted.
 */
export async function ruleMatches(
  portal: BenchPortal,
  record: RecordFigure,
  options: { matches: number; runs: number },
): Promise<void> {
  const { db } = portal.runtime;
  await db.connection().execute(async (connection) => {
    await sql`SET statement_timeout = 0`.execute(connection);
    await sql`
      INSERT INTO rule (tenant_id, name, rule_type_id, conditions, match_lifetime_seconds)
      VALUES (${DEMO.contoso}::uuid, 'Bench matches', 1, '[]'::jsonb, 300)`.execute(connection);
    await sql`
      INSERT INTO rule_match (rule_id, tenant_id, subject_id, label, first_match, last_match, expires, created, completion_processed)
      SELECT (SELECT rule_id FROM rule WHERE name = 'Bench matches'),
             CASE WHEN g % 20 = 0 THEN ${DEMO.contoso}::uuid ELSE t.ids[1 + g % array_length(t.ids, 1)] END,
             'subject-' || g, 'Bench match ' || g, now() - g * interval '1 second', now() - g * interval '1 second',
             now() - g * interval '1 second' + interval '5 minutes', now() - g * interval '1 second', true
      FROM generate_series(1, ${options.matches}) AS g,
           (SELECT array_agg(tenant_id) AS ids FROM (SELECT tenant_id FROM tenant WHERE tenant_id <> ${DEMO.contoso}::uuid ORDER BY name LIMIT 19) AS few) AS t`.execute(
      connection,
    );
    await sql`VACUUM ANALYZE rule_match`.execute(connection);
    await sql`RESET statement_timeout`.execute(connection);
  });
  const admin = await portal.token('admin');
  const operator = await portal.token('operator');
  const scale = `${options.matches.toLocaleString('en-US')} matches`;
  for (const counted of [false, true]) {
    const query = new URLSearchParams({ $top: '50', ...(counted ? { $count: 'true' } : {}) }).toString();
    const path = `/v1/rulematches?${query}`;
    const { a, b } = await paired(
      options.runs,
      async () => (await get(portal, admin, path)).ms,
      async () => (await get(portal, operator, path)).ms,
    );
    const label = counted ? 'with $count' : 'no $count';
    console.log(`  ${label}: every tenant p50 ${a.p50.toFixed(2)} ms, one tenant p50 ${b.p50.toFixed(2)} ms`);
    record({
      name: `rule matches at ${scale}, every tenant (administrator), default page (${label}), p50`,
      value: a.p50,
      unit: 'ms',
      baselineName: "one tenant's (operator) default page, p50",
      baseline: b.p50,
      target: '≤ 2',
    });
  }
}

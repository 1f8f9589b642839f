import http from 'node:http';
import { sql } from 'kysely';
import { tenantsResource } from '../../server/src/areas/tenants/resource.js';
import { ALL_TENANTS } from '../../server/src/auth/tenant-scope.js';
import { buildListSql } from '../../server/src/odata/list-query-sql.js';
import { parseListQuery, type ListQueryInput } from '../../server/src/odata/list-query.js';
import { openBenchPortal } from './bench-portal.js';
import { timedGet } from './http-client.js';

const portal = await openBenchPortal(async ({ db }) => {
  await sql`INSERT INTO tenant (name, assignment_groups) SELECT 'Tenant ' || g, 'Service Desk' FROM generate_series(1, 20000) AS g`.execute(db);
});
const admin = await portal.token('admin');
const { db } = portal.runtime;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const query = (process.env.COUNT ? { $count: 'true', $top: '10', $skip: '0', $orderby: 'name asc' } : { $top: '10', $skip: '0', $orderby: 'name asc' }) as Record<string, string>;
const path = `/v1/tenants?${new URLSearchParams(query).toString()}`;
const statements = buildListSql(db.selectFrom('tenant').selectAll(), parseListQuery(tenantsResource, query as ListQueryInput), ALL_TENANTS);
for (let i = 0; i < 200; i++) { await timedGet(agent, `${portal.address}${path}`, admin); await Promise.all([statements.rows.execute(db), ...(query.$count ? [statements.count.execute(db)] : [])]); }
console.error('READY', process.pid);
await new Promise((r) => setTimeout(r, 1500));
const N = 1000;
if (process.env.MODE === 'http') for (let i = 0; i < N; i++) await timedGet(agent, `${portal.address}${path}`, admin);
else for (let i = 0; i < N; i++) await Promise.all([statements.rows.execute(db), ...(query.$count ? [statements.count.execute(db)] : [])]);
console.error('DONE');
await new Promise((r) => setTimeout(r, 1500));
agent.destroy();
await portal.close();

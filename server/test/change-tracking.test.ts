import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO } from '../src/db/demo-ids.js';
import type { DB } from '../src/db/schema.js';
import type { Resource } from '../src/odata/resource.js';
import { createTestPortal, registeredRoutes, type TestPortal } from './harness.js';
import { createRowsOfEveryList } from './list-fixtures.js';

/*
 * A polled list is answered 304 while nothing it reads has changed only when every table it reads
 * moves a change counter (migration 0011: `SELECT track_changes('table')` in the table's
 * migration). A table created without it loses those answers silently: its lists run their query
 * on every poll. Every list route is called here, as it is and with each of its relations
 * expanded; one answered without an entity tag names the migration to fix. New list routes are
 * checked the day they are registered, and a new table the day its migration runs: it is tracked,
 * or listed below with why not.
 */
let portal: TestPortal;
const lists: { url: string; expand: string }[] = [];

/**
 * Tables without a change counter, and why: no list reads them, or they are written all the time.
 * A migration that creates a table without `SELECT track_changes('table')` fails this test until
 * the table is tracked or listed here.
 */
const UNTRACKED = {
  control: 'the compliance week and its controls are read by the compliance routes, not by a list',
  control_poam: 'the compliance engine’s record of the POA&M units it opened',
  control_set: 'the compliance week and its controls are read by the compliance routes, not by a list',
  control_status: 'the compliance week and its controls are read by the compliance routes, not by a list',
  engine_cursor: 'the event readers’ positions, moved on every pass',
  entity_log: 'a row per rule action; read by the drawers’ Logs tabs, not by a list',
  entity_owner: 'claimed by ingestion; no list reads it',
  job: 'the job queue, written all the time',
  kysely_migration: 'the migrator’s',
  kysely_migration_lock: 'the migrator’s',
  notification_policy: 'one row per tenant, read by its own GET, not by a list',
  oidc_payload: 'the embedded identity provider’s sessions',
  packet: 'written all the time; the lists read packet_latest',
  rule_correlation_member: 'the window worker’s working set',
  service_level_calendar: 'one row per tenant, read by its own GET, not by a list',
  service_level_target: 'a tenant’s targets, read with its calendar by its own GET, not by a list',
  stored_file: 'package files, read by downloads',
  stored_file_chunk: 'package files, read by downloads',
  version_report_device_count: 'the version report’s figures, read by its summary, which is never tagged',
  version_report_package_count: 'the version report’s figures, read by its summary, which is never tagged',
  work_unit_communication_work_unit: 'read only by the communications list, which reads the clock and is never tagged',
  worker_heartbeat: 'written by every worker every few seconds',
} as const satisfies Partial<Record<keyof DB | 'kysely_migration' | 'kysely_migration_lock', string>>;

/** Lists never tagged, and why: the list layer counts the tables a statement names, and a view has no counter. */
const UNTAGGED: Record<string, string> = {
  '/v1/compliancereport': 'reads the view package_latest_version',
};

beforeAll(async () => {
  portal = await createTestPortal();
  for (const route of await registeredRoutes(portal)) {
    const config = route.config as { listResource?: unknown; listReadsClock?: boolean } | undefined;
    // A list whose rows depend on the time (online since, due) is never tagged, by design.
    const isList = String(route.method) === 'GET' && !route.url.endsWith('/Export');
    if (isList && config?.listResource && !config.listReadsClock && !(route.url in UNTAGGED))
      lists.push({ url: route.url, expand: Object.keys((config.listResource as Resource).relations).join(',') });
  }
  await createRowsOfEveryList(portal, DEMO.contoso, DEMO.contosoProduction);
  await portal.runtime.changes.whenReady();
});
afterAll(async () => {
  await portal?.close();
});

/** Tables of the portal's schema without the change trigger: where an untagged list's table is to be found. */
async function untrackedTables(): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    SELECT c.relname AS "table" FROM pg_class c
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = 'count_change')
    ORDER BY 1`.execute(portal.db);
  return rows.map((row) => row.table);
}

describe('change tracking', () => {
  test('is on every table but those listed with why no list reads them: a new table is tracked or listed', async () => {
    const hint = 'a table without track_changes(): add it to its migration, or to UNTRACKED with why no list reads it';
    expect(await untrackedTables(), hint).toEqual(Object.keys(UNTRACKED).sort());
  });

  test('tags the answer of every list route: every table a list reads moves a change counter', async () => {
    expect(lists.map((list) => list.url)).toEqual(
      expect.arrayContaining(['/v1/tenants', '/v1/locations', '/v1/workunits']),
    );
    // The counters have been read since the last write, and that reading has settled.
    await portal.runtime.changes.sync();
    const untagged: string[] = [];
    for (const { url, expand } of lists) {
      for (const query of ['$top=1', ...(expand ? [`$top=1&$expand=${expand}`] : [])]) {
        const response = await portal.as('admin', { method: 'GET', url: `${url}?${query}` });
        expect(response.statusCode, `${url}?${query}`).toBe(200);
        if (!response.headers.etag) untagged.push(`${url}?${query}`);
      }
    }
    const hint = untagged.length > 0 ? `tables without track_changes(): ${(await untrackedTables()).join(', ')}` : '';
    expect(untagged, hint).toEqual([]);
  });
});

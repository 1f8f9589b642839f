import type { Kysely } from 'kysely';
import { declareTable, runStatements } from '../migrate.js';

/**
 * Service levels (docs/features/service-levels.md):
 * - `service_level_calendar`: a tenant's calendar (none: the installation's, the row without a
 *   tenant): its time zone, business hours per weekday (none: around the clock), holidays, and the
 *   work unit states in which the clocks pause;
 * - `service_level_target`: the time to first response and to resolution per work unit type and
 *   severity, of a tenant (with a calendar of its own) or of the installation;
 * - `service_level_timer`: a work unit's two clocks, started, paused, resumed and stopped by its
 *   events: the business time counted up to `counted_to`, when it is due while it runs, and when it
 *   warned (75%) and breached (100%).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE service_level_calendar (
        tenant_id uuid REFERENCES tenant (tenant_id),
        time_zone text NOT NULL DEFAULT 'UTC',
        business_hours jsonb,
        holidays text[] NOT NULL DEFAULT '{}',
        pause_state_ids smallint[] NOT NULL DEFAULT '{4}',
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE UNIQUE INDEX service_level_calendar_tenant_idx ON service_level_calendar (tenant_id) NULLS NOT DISTINCT`,
    declareTable('service_level_calendar', {
      owner: 'areas/servicelevels',
      tenantColumn: 'tenant_id',
      sharedWhenNull: true,
    }),
    `CREATE TABLE service_level_target (
        tenant_id uuid REFERENCES tenant (tenant_id),
        work_unit_type_id smallint NOT NULL,
        severity_id smallint NOT NULL,
        response_seconds integer CHECK (response_seconds > 0),
        resolution_seconds integer CHECK (resolution_seconds > 0)
    )`,
    `CREATE UNIQUE INDEX service_level_target_idx ON service_level_target (tenant_id, work_unit_type_id, severity_id) NULLS NOT DISTINCT`,
    declareTable('service_level_target', {
      owner: 'areas/servicelevels',
      tenantColumn: 'tenant_id',
      sharedWhenNull: true,
    }),
    // The installation's defaults: a day to respond and a week to resolve at Sev2, tighter above, looser below.
    `INSERT INTO service_level_calendar (tenant_id, modified_by) VALUES (NULL, 'system')`,
    `INSERT INTO service_level_target (tenant_id, work_unit_type_id, severity_id, response_seconds, resolution_seconds)
       SELECT NULL, t, s.severity, s.response, s.resolution
       FROM unnest(ARRAY[1, 2, 3, 4]) AS t
       CROSS JOIN (VALUES (0, 900, 14400), (1, 3600, 28800), (2, 14400, 86400), (3, 28800, 259200), (4, 86400, 604800))
         AS s(severity, response, resolution)`,
    `CREATE TABLE service_level_timer (
        work_unit_id bigint NOT NULL REFERENCES work_unit (work_unit_id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('response', 'resolution')),
        tenant_id uuid NOT NULL,
        severity_id smallint NOT NULL,
        target_seconds integer NOT NULL,
        started timestamptz NOT NULL,
        elapsed_seconds double precision NOT NULL DEFAULT 0,
        counted_to timestamptz NOT NULL,
        running boolean NOT NULL,
        paused boolean NOT NULL DEFAULT false,
        stopped timestamptz,
        due timestamptz,
        warn_at timestamptz,
        warned timestamptz,
        breached timestamptz,
        PRIMARY KEY (work_unit_id, kind)
    )`,
    declareTable('service_level_timer', { owner: 'engines/servicelevels', tenantColumn: 'tenant_id' }),
    `SELECT track_changes('service_level_timer')`,
    // Running clocks by due time: the list's "breaching within" filter and sort, and the breach sweep.
    `CREATE INDEX service_level_timer_due_idx ON service_level_timer (tenant_id, due) WHERE running`,
    `CREATE INDEX service_level_timer_warn_idx ON service_level_timer (warn_at) WHERE running AND warned IS NULL`,
    `CREATE INDEX service_level_timer_breach_idx ON service_level_timer (due) WHERE running AND breached IS NULL`,
  ]);
}

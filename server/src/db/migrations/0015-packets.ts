import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Packets (spec 002 §3 Packet): the history of every entity's packets, and the latest packet per
 * entity, which the grids and tiles read.
 *
 * History is partitioned by day of the packet's timestamp, so that inserts touch small indexes,
 * reads by entity and time range look at the days they name, and retention (PACKET_RETENTION_DAYS)
 * drops whole partitions instead of deleting rows. `packet_partitions_ensure(from, to)` makes the
 * days' partitions that are missing; a recurring task keeps days ahead ready and drops old ones.
 * A re-sent packet (same entity, timestamp and content) is stored once: the key holds the hash
 * of its content.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE packet (
        entity_id uuid NOT NULL,
        tenant_id uuid NOT NULL,
        timestamp timestamptz NOT NULL,
        content_hash bytea NOT NULL,
        received timestamptz NOT NULL DEFAULT now(),
        message jsonb NOT NULL,
        PRIMARY KEY (entity_id, timestamp, content_hash)
    ) PARTITION BY RANGE (timestamp)`,
    `CREATE FUNCTION packet_partitions_ensure(first_day date, last_day date) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        day date := first_day;
      BEGIN
        -- One maker at a time: two instances creating the same day at once would collide in the catalogue.
        PERFORM pg_advisory_xact_lock(hashtextextended('packet_partitions_ensure', 0));
        WHILE day <= last_day LOOP
          EXECUTE format(
            'CREATE TABLE IF NOT EXISTS %I PARTITION OF packet FOR VALUES FROM (%L) TO (%L)',
            'packet_' || to_char(day, 'YYYYMMDD'), day::timestamp AT TIME ZONE 'UTC', (day + 1)::timestamp AT TIME ZONE 'UTC');
          day := day + 1;
        END LOOP;
      END $$`,
    `SELECT packet_partitions_ensure((now() AT TIME ZONE 'UTC')::date - 31, (now() AT TIME ZONE 'UTC')::date + 7)`,
    `CREATE TABLE packet_latest (
        entity_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        timestamp timestamptz NOT NULL,
        received timestamptz NOT NULL DEFAULT now(),
        message jsonb NOT NULL
    )`,
    `CREATE INDEX packet_latest_tenant_idx ON packet_latest (tenant_id, entity_id)`,
    `SELECT track_changes('packet_latest')`,
  ]);
}

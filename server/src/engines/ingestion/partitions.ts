import { sql } from 'kysely';
import { z } from 'zod';
import { loadConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { defineTask } from '../jobs/task.js';

const DAY_MS = 86_400_000;
/** Days ahead whose partitions are kept ready, so ingestion never waits for one to be made. */
export const PARTITION_DAYS_AHEAD = 7;

/** The UTC calendar day of an instant, as `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Makes the daily partitions of packet history from `firstDay` to `lastDay` (UTC, inclusive) that are missing. */
export async function ensurePacketPartitions(db: Db, firstDay: string, lastDay: string): Promise<void> {
  await sql`SELECT packet_partitions_ensure(${firstDay}::date, ${lastDay}::date)`.execute(db);
}

/** The history's partitions, by the UTC day each holds (from their names, `packet_YYYYMMDD`). */
export async function packetPartitions(db: Db): Promise<{ name: string; day: string }[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'packet'::regclass
    ORDER BY c.relname`.execute(db);
  return rows.flatMap(({ name }) => {
    const match = /^packet_(\d{4})(\d{2})(\d{2})$/.exec(name);
    return match ? [{ name, day: `${match[1]}-${match[2]}-${match[3]}` }] : [];
  });
}

/**
 * Keeps the packet history's partitions (spec 002 §3 Packet; PACKET_RETENTION_DAYS): the days from
 * the retention limit to a week ahead exist, and a day whose every packet is older than the limit
 * is dropped whole — cheaper than deleting rows, and it leaves no bloat. Ingestion refuses packets
 * older than the limit, so nothing is written into a day about to go. The latest packet of each
 * entity stays: a tile still shows what its entity last reported.
 */
export async function maintainPacketPartitions(
  db: Db,
  retentionDays: number,
  now = new Date(),
): Promise<{ dropped: string[] }> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  await ensurePacketPartitions(db, utcDay(cutoff), utcDay(new Date(now.getTime() + PARTITION_DAYS_AHEAD * DAY_MS)));
  const dropped: string[] = [];
  for (const partition of await packetPartitions(db)) {
    // A day ends at the next midnight: drop it when that is at or before the cutoff.
    if (Date.parse(`${partition.day}T00:00:00Z`) + DAY_MS > cutoff.getTime()) continue;
    await sql`DROP TABLE IF EXISTS ${sql.table(partition.name)}`.execute(db);
    dropped.push(partition.name);
  }
  return { dropped };
}

/**
 * Hourly partition upkeep. Tasks are handed only the database; the worker runs with the
 * environment its configuration was read from, so the retention comes from there.
 */
export const maintainPacketPartitionsTask = defineTask({
  name: 'packets.partitions',
  payload: z.object({}),
  every: 60 * 60_000,
  perform: async (_payload, { db }) => {
    await maintainPacketPartitions(db, loadConfig(process.env).packetRetentionDays);
  },
});

import type { Kysely } from 'kysely';
import { declareTable, runStatements } from '../migrate.js';

/**
 * The runs of Script operations, as their agents report them (docs/features/device-agent.md
 * "Scripts"): when the script started and how long it ran, the SHA-256 of the file that ran, its exit
 * code (none when its timeout ended it or the agent refused it), its output as the agent cut it,
 * and the agent's reason when it refused to run it. Kept with the device operation, newest first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE script_run (
        script_run_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        device_operation_id uuid NOT NULL REFERENCES device_operation (device_operation_id) ON DELETE CASCADE,
        device_id uuid NOT NULL REFERENCES device (device_id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        received timestamptz NOT NULL,
        started timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        sha256 text,
        exit_code integer,
        timed_out boolean NOT NULL,
        refused text,
        stdout text NOT NULL,
        stderr text NOT NULL,
        truncated boolean NOT NULL
    )`,
    declareTable('script_run', { owner: 'areas/agent', tenantColumn: 'tenant_id' }),
    `SELECT track_changes('script_run')`,
    `CREATE INDEX script_run_operation_idx ON script_run (device_operation_id, script_run_id DESC)`,
  ]);
}

import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * The package catalogue (spec 002 §3 Package, Package version, Operation). A package without a
 * tenant is the installation's own and offered to every tenant. Enumerations are stored as the
 * ids of `@cfs/contracts/fleet`.
 *
 * A version's file lives in the content-addressed store under DATA_DIR (its SHA-256 names it);
 * the row keeps the hash, the name it was uploaded under and its size.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE package (
        package_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid REFERENCES tenant (tenant_id),
        name text NOT NULL,
        description text,
        package_type_id smallint NOT NULL,
        executable_name text,
        executable_type_id smallint,
        reference_url text,
        operating_system_ids smallint[] NOT NULL DEFAULT '{}',
        parameter_definitions jsonb NOT NULL DEFAULT '[]',
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE INDEX package_tenant_name_idx ON package (tenant_id, name, package_id)`,
    `CREATE INDEX package_name_idx ON package (name, package_id)`,
    `CREATE TABLE package_version (
        package_version_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        package_id uuid NOT NULL REFERENCES package (package_id) ON DELETE CASCADE,
        version text NOT NULL,
        label text NOT NULL,
        package_version_status_id smallint NOT NULL,
        file_sha256 text NOT NULL,
        file_name text NOT NULL,
        file_size bigint NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        UNIQUE (package_id, version)
    )`,
    `CREATE INDEX package_version_status_idx ON package_version (package_id, package_version_status_id)`,
    `CREATE TABLE operation (
        operation_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        package_id uuid NOT NULL REFERENCES package (package_id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        parameter_definitions jsonb NOT NULL DEFAULT '[]',
        frequency_type_ids smallint[] NOT NULL,
        default_interval_seconds integer NOT NULL DEFAULT 300,
        operation_type_id smallint NOT NULL,
        operation_result_type_id smallint NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE INDEX operation_package_idx ON operation (package_id, name)`,
    `SELECT track_changes('package')`,
    `SELECT track_changes('package_version')`,
    `SELECT track_changes('operation')`,
  ]);
}

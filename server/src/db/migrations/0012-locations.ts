import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Locations (spec 002 §3 Location). A location without a tenant belongs to the installation and
 * is offered to every tenant (`/api/generallookup/locations`: "locations of the tenant or tenantless").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE location (
        location_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid REFERENCES tenant (tenant_id),
        name text NOT NULL,
        address1 text,
        address2 text,
        city text,
        state text,
        country text,
        postal_code text,
        coordinates text,
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE INDEX location_tenant_name_idx ON location (tenant_id, name, location_id)`,
    `CREATE INDEX location_name_idx ON location (name, location_id)`,
    `SELECT track_changes('location')`,
  ]);
}

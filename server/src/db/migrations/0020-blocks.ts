import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Blocks (spec 002 §3 Block): monitoring tiles, each showing the packets of one entity. The
 * block's id IS that entity's id (a device, a device operation, or any entity a tenant's scripts
 * report on), so a tile, its history, its logs and its colour are read by the same key as the
 * packets. The list is read per tenant (or subscription) ordered by name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE block (
        block_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        subscription_id uuid NOT NULL REFERENCES subscription (subscription_id),
        name text NOT NULL,
        description text,
        block_type_id smallint NOT NULL CHECK (block_type_id IN (1, 2, 8)),
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE INDEX block_tenant_name_idx ON block (tenant_id, name, block_id)`,
    `CREATE INDEX block_subscription_name_idx ON block (subscription_id, name, block_id)`,
    `CREATE INDEX block_name_idx ON block (name, block_id)`,
    `SELECT track_changes('block')`,
  ]);
}

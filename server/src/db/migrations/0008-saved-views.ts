import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Saved views of a grid: a named set of filters, sort and columns, owned by a user in a tenant,
 * optionally shared with everyone working in that tenant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE saved_view (
        saved_view_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES app_user (user_id) ON DELETE CASCADE,
        grid text NOT NULL,
        name text NOT NULL,
        shared boolean NOT NULL DEFAULT false,
        state jsonb NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        modified timestamptz NOT NULL DEFAULT now()
      )`,
    // One name per owner, grid and tenant; names compared without case, as people read them.
    `CREATE UNIQUE INDEX saved_view_name_idx ON saved_view (tenant_id, grid, user_id, lower(name))`,
    `CREATE INDEX saved_view_shared_idx ON saved_view (tenant_id, grid) WHERE shared`,
  ]);
}

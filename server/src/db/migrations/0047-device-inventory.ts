import type { Kysely } from 'kysely';
import { declareTable, runStatements } from '../migrate.js';

/**
 * A device's inventory, as its agent reports it (docs/features/device-agent.md "Inventory"):
 * - `device_inventory`: the latest report's hardware and operating system, when it came and when
 *   it last changed anything;
 * - `device_software`: the software installed, one row a name, read across the fleet by name;
 * - `device_inventory_change`: what each report changed — software added, removed or at another
 *   version, the operating system's version, the hardware — the device's inventory history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE device_inventory (
        device_id uuid PRIMARY KEY REFERENCES device (device_id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        hardware jsonb NOT NULL,
        os jsonb NOT NULL,
        software_count integer NOT NULL,
        reported timestamptz NOT NULL,
        changed timestamptz NOT NULL
    )`,
    declareTable('device_inventory', { owner: 'areas/agent', tenantColumn: 'tenant_id' }),
    `SELECT track_changes('device_inventory')`,
    `CREATE TABLE device_software (
        device_id uuid NOT NULL REFERENCES device (device_id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        name text NOT NULL,
        version text NOT NULL,
        publisher text,
        PRIMARY KEY (device_id, name)
    )`,
    declareTable('device_software', { owner: 'areas/agent', tenantColumn: 'tenant_id' }),
    `SELECT track_changes('device_software')`,
    // Which devices of a tenant have a given piece of software.
    `CREATE INDEX device_software_name_idx ON device_software (tenant_id, lower(name))`,
    `CREATE TABLE device_inventory_change (
        device_inventory_change_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        device_id uuid NOT NULL REFERENCES device (device_id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        at timestamptz NOT NULL,
        item text NOT NULL CHECK (item IN ('software', 'os', 'hardware')),
        name text NOT NULL,
        change text NOT NULL CHECK (change IN ('added', 'removed', 'changed')),
        from_value text,
        to_value text
    )`,
    declareTable('device_inventory_change', { owner: 'areas/agent', tenantColumn: 'tenant_id' }),
    `SELECT track_changes('device_inventory_change')`,
    `CREATE INDEX device_inventory_change_device_idx ON device_inventory_change (device_id, at DESC, device_inventory_change_id DESC)`,
  ]);
}

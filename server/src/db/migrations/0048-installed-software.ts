import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * The fleet's installed software as one list (GET /v1/software, docs/features/device-agent.md
 * "Software across the fleet"): "which devices have OpenSSL below 3.0.13".
 * - `version_order`: ICU's root collation with numeric ordering, under which a version's digit runs
 *   compare as numbers ("3.0.9" < "3.0.13" < "3.0.13-1~deb12u1" < "10.0"); the software's version
 *   column takes it, so its comparisons, its sort and its index all order versions as people read them.
 * - `device_software_id`: a key of the row's own, the list's tie-breaker and skip token.
 * - the list's default order (name, version, key) from an index, within a tenant or across all;
 *   a name search from a trigram index on the name's lower case (the list's search text).
 * - a deleted device's software goes with it (its agent's credential is gone, it reports no more):
 *   the list then reads the software table alone, and joins a device's and a tenant's name only for
 *   the rows of its page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE COLLATION version_order (provider = icu, locale = 'und-u-kn-true')`,
    `ALTER TABLE device_software ALTER COLUMN version TYPE text COLLATE version_order`,
    `ALTER TABLE device_software ADD COLUMN device_software_id bigint GENERATED ALWAYS AS IDENTITY`,
    `ALTER TABLE device_software ADD CONSTRAINT device_software_id_key UNIQUE (device_software_id)`,
    `DROP INDEX device_software_name_idx`,
    `CREATE INDEX device_software_tenant_order_idx ON device_software (tenant_id, name, version, device_software_id)`,
    `CREATE INDEX device_software_order_idx ON device_software (name, version, device_software_id)`,
    `DELETE FROM device_software s USING device d WHERE d.device_id = s.device_id AND d.is_deleted`,
    `CREATE FUNCTION device_software_leaves_deleted_device() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM device_software WHERE device_id = NEW.device_id;
        RETURN NULL;
      END $$`,
    `CREATE TRIGGER device_software_leaves_deleted_device AFTER UPDATE OF is_deleted ON device
      FOR EACH ROW WHEN (NEW.is_deleted AND NOT OLD.is_deleted) EXECUTE FUNCTION device_software_leaves_deleted_device()`,
    `CREATE INDEX device_software_search_idx ON device_software USING gin ((lower(coalesce(name, ''))) gin_trgm_ops)`,
  ]);
}

import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Announces at commit (NOTIFY principal_changed, as migration 0005 does for people) every change
 * to what a machine's credential speaks for, so that each instance's cache of machine callers
 * drops it at once: a tenant token revoked, its expiry, tenant or hash changed, or the token
 * deleted (`token:<id>`, which also ends the devices enrolled with it), and a device disabled,
 * deleted, moved, or given a new credential (`device:<id>`). A device's reports (its last contact,
 * its trace) change none of those columns and announce nothing. A tenant's change is announced by
 * migration 0005 already (`all`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE FUNCTION notify_principal_token() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('principal_changed', 'token:' || OLD.token_grant_id::text);
        RETURN NULL;
      END $$`,
    `CREATE FUNCTION notify_principal_device() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('principal_changed', 'device:' || OLD.device_id::text);
        RETURN NULL;
      END $$`,
    `CREATE TRIGGER token_grant_principal AFTER UPDATE ON token_grant FOR EACH ROW
      WHEN (OLD.revoked_on IS DISTINCT FROM NEW.revoked_on OR OLD.expires_on IS DISTINCT FROM NEW.expires_on
        OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id OR OLD.token_hash IS DISTINCT FROM NEW.token_hash)
      EXECUTE FUNCTION notify_principal_token()`,
    `CREATE TRIGGER token_grant_principal_delete AFTER DELETE ON token_grant FOR EACH ROW
      EXECUTE FUNCTION notify_principal_token()`,
    `CREATE TRIGGER device_principal AFTER UPDATE ON device FOR EACH ROW
      WHEN (OLD.enabled IS DISTINCT FROM NEW.enabled OR OLD.is_deleted IS DISTINCT FROM NEW.is_deleted
        OR OLD.credential_hash IS DISTINCT FROM NEW.credential_hash OR OLD.token_grant_id IS DISTINCT FROM NEW.token_grant_id
        OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id OR OLD.subscription_id IS DISTINCT FROM NEW.subscription_id)
      EXECUTE FUNCTION notify_principal_device()`,
    `CREATE TRIGGER device_principal_delete AFTER DELETE ON device FOR EACH ROW
      EXECUTE FUNCTION notify_principal_device()`,
  ]);
}

import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Announces at commit (NOTIFY principal_changed) every change to who may do what: users, their
 * roles and tenants, role permissions, tenants, and sign-in grants. Each instance's principal
 * cache listens and drops what changed. Triggers, not calls in the code: no write path, today's or
 * a future one, can forget to announce.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE FUNCTION notify_principal_user() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('principal_changed', 'user:' || (CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END)::text);
        IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
          PERFORM pg_notify('principal_changed', 'user:' || OLD.user_id::text);
        END IF;
        RETURN NULL;
      END $$`,
    `CREATE FUNCTION notify_principal_all() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('principal_changed', 'all');
        RETURN NULL;
      END $$`,
    `CREATE FUNCTION notify_principal_grant() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.type = 'Grant' THEN PERFORM pg_notify('principal_changed', 'grant:' || OLD.id); END IF;
        RETURN NULL;
      END $$`,
    `CREATE TRIGGER app_user_principal AFTER UPDATE OR DELETE ON app_user FOR EACH ROW EXECUTE FUNCTION notify_principal_user()`,
    `CREATE TRIGGER user_role_principal AFTER INSERT OR UPDATE OR DELETE ON user_role FOR EACH ROW EXECUTE FUNCTION notify_principal_user()`,
    `CREATE TRIGGER user_tenant_principal AFTER INSERT OR UPDATE OR DELETE ON user_tenant FOR EACH ROW EXECUTE FUNCTION notify_principal_user()`,
    `CREATE TRIGGER role_permission_principal AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_permission FOR EACH STATEMENT EXECUTE FUNCTION notify_principal_all()`,
    `CREATE TRIGGER app_role_principal AFTER UPDATE OR DELETE ON app_role FOR EACH STATEMENT EXECUTE FUNCTION notify_principal_all()`,
    `CREATE TRIGGER tenant_principal AFTER UPDATE OR DELETE ON tenant FOR EACH STATEMENT EXECUTE FUNCTION notify_principal_all()`,
    `CREATE TRIGGER oidc_grant_principal AFTER DELETE ON oidc_payload FOR EACH ROW EXECUTE FUNCTION notify_principal_grant()`,
  ]);
}

import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * Announces at commit (NOTIFY agent_config, the device's id as payload) every change to what a
 * device's agent runs, so that an agent waiting for its configuration (GET
 * /v1/agent/configuration with `Prefer: wait`) on any instance is answered at once: an operation
 * of the device added, changed, queued, completed or removed, a package installation asked for,
 * reported or removed, and the device's restart flag, heartbeat, logging level, trace or name
 * changed. A device's reports of contact change none of those columns and announce nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE FUNCTION notify_agent_config() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('agent_config', OLD.device_id::text); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('agent_config', NEW.device_id::text); END IF;
        RETURN NULL;
      END $$`,
    `CREATE TRIGGER device_operation_agent_config AFTER INSERT OR UPDATE OR DELETE ON device_operation
      FOR EACH ROW EXECUTE FUNCTION notify_agent_config()`,
    `CREATE TRIGGER device_installation_agent_config AFTER INSERT OR UPDATE OR DELETE ON device_installation
      FOR EACH ROW EXECUTE FUNCTION notify_agent_config()`,
    `CREATE TRIGGER device_agent_config AFTER UPDATE ON device FOR EACH ROW
      WHEN (OLD.restart_agent_flag IS DISTINCT FROM NEW.restart_agent_flag
        OR OLD.heartbeat_interval IS DISTINCT FROM NEW.heartbeat_interval
        OR OLD.device_logging_level_id IS DISTINCT FROM NEW.device_logging_level_id
        OR OLD.trace_expiration IS DISTINCT FROM NEW.trace_expiration
        OR OLD.name IS DISTINCT FROM NEW.name)
      EXECUTE FUNCTION notify_agent_config()`,
  ]);
}

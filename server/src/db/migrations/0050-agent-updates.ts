import type { Kysely } from 'kysely';
import { declareTable, runStatements } from '../migrate.js';

/**
 * The agent's self-update (docs/features/device-agent.md "Updates"):
 * - `agent_update_policy`: a tenant's choice of the agent version its devices run (none: the
 *   Latest of the shared agent package, or a pinned version), the percentage of its devices that
 *   take a new version first, and the minutes an updated agent has to report before it goes back;
 * - `agent_rollout`: one version's rollout in one tenant: when a device first ran it (the rest
 *   follow once that many minutes passed without a failure), and why it was halted;
 * - `device_agent_update`: each device's last update, as the agent reported it (Updating, Updated,
 *   RolledBack, Refused) or as the portal found it (Silent: it did not report in time).
 * The shared agent package is the one tenantless package of type AgentRunner. A change to what
 * the devices are to run — a policy saved, a rollout halted or resumed, a version of the agent
 * package added or removed — is announced to every waiting agent (NOTIFY agent_config, payload
 * `*`, migration 0040), so a held configuration call is answered with it at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE agent_update_policy (
        tenant_id uuid PRIMARY KEY REFERENCES tenant (tenant_id) ON DELETE CASCADE,
        version text,
        rollout_percent smallint NOT NULL DEFAULT 100 CHECK (rollout_percent BETWEEN 1 AND 100),
        rollback_minutes smallint NOT NULL DEFAULT 10 CHECK (rollback_minutes BETWEEN 1 AND 1440),
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    declareTable('agent_update_policy', { owner: 'areas/agent', tenantColumn: 'tenant_id' }),
    `SELECT track_changes('agent_update_policy')`,
    `CREATE TABLE agent_rollout (
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id) ON DELETE CASCADE,
        package_version_id uuid NOT NULL REFERENCES package_version (package_version_id) ON DELETE CASCADE,
        first_updated timestamptz,
        halted timestamptz,
        halted_reason text,
        PRIMARY KEY (tenant_id, package_version_id)
    )`,
    declareTable('agent_rollout', { owner: 'areas/agent', tenantColumn: 'tenant_id' }),
    `SELECT track_changes('agent_rollout')`,
    `CREATE TABLE device_agent_update (
        device_id uuid PRIMARY KEY REFERENCES device (device_id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        package_version_id uuid NOT NULL REFERENCES package_version (package_version_id) ON DELETE CASCADE,
        from_version text,
        outcome text NOT NULL CHECK (outcome IN ('Updating', 'Updated', 'RolledBack', 'Refused', 'Silent')),
        detail text,
        started timestamptz NOT NULL,
        deadline timestamptz NOT NULL,
        modified timestamptz NOT NULL DEFAULT now()
    )`,
    declareTable('device_agent_update', { owner: 'areas/agent', tenantColumn: 'tenant_id' }),
    `SELECT track_changes('device_agent_update')`,
    `CREATE INDEX device_agent_update_waiting_idx ON device_agent_update (deadline) WHERE outcome = 'Updating'`,
    `CREATE INDEX device_agent_update_version_idx ON device_agent_update (tenant_id, package_version_id, outcome)`,
    `CREATE FUNCTION notify_agent_config_all() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('agent_config', '*');
        RETURN NULL;
      END $$`,
    `CREATE TRIGGER agent_update_policy_agent_config AFTER INSERT OR UPDATE OR DELETE ON agent_update_policy
      FOR EACH STATEMENT EXECUTE FUNCTION notify_agent_config_all()`,
    `CREATE TRIGGER agent_rollout_agent_config AFTER INSERT OR UPDATE OR DELETE ON agent_rollout
      FOR EACH STATEMENT EXECUTE FUNCTION notify_agent_config_all()`,
    `CREATE FUNCTION notify_agent_release() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM package WHERE package_id = COALESCE(NEW.package_id, OLD.package_id)
                     AND tenant_id IS NULL AND package_type_id = 5) THEN
          PERFORM pg_notify('agent_config', '*');
        END IF;
        RETURN NULL;
      END $$`,
    `CREATE TRIGGER package_version_agent_config AFTER INSERT OR UPDATE OR DELETE ON package_version
      FOR EACH ROW EXECUTE FUNCTION notify_agent_release()`,
    // One shared agent package: the tenantless package of type AgentRunner (5).
    `CREATE UNIQUE INDEX package_agent_runner_idx ON package (package_type_id) WHERE tenant_id IS NULL AND package_type_id = 5`,
  ]);
}

import type { Kysely } from 'kysely';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { runStatements } from '../migrate.js';

/**
 * Rules and what they act on (spec 002 §3 Rule, RuleMatch, ActionDefinition, ActionHistory, the
 * block's entityColor and logs).
 *
 * - `rule`: conditions, time limitations and actions as JSON, the lifetime in seconds. A rule
 *   without a tenant is the installation's and is evaluated for every tenant.
 * - `rule_match`: one open match per rule and subject (the partial unique index), claimed in the
 *   database so that two evaluating instances never open it twice; closed once its expiration was
 *   processed (`completion_processed`).
 * - `rule_correlation_member`: the entities that met a Correlation rule's conditions, and when last.
 * - `entity_color`, `entity_log`: an entity's colour (the set-colour action) and its log (what
 *   rules did to it), which blocks show.
 * - `action_definition` with the three built-in actions at their fixed ids (Set Colour and Create
 *   Work Unit: rule actions, type 6; Send Email: a protocol action, type 1); `action_history`: every
 *   action run, suppressed ones included.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const builtIns = Object.values(BUILT_IN_ACTIONS)
    .map(
      (action) =>
        `('${action.id}', '${action.name}', ${action === BUILT_IN_ACTIONS.sendEmail ? 1 : 6}, '${action.parameters.join(',')}')`,
    )
    .join(', ');
  await runStatements(db, [
    `CREATE TABLE action_definition (
        action_definition_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid REFERENCES tenant (tenant_id),
        name text NOT NULL,
        description text,
        action_definition_type_id smallint NOT NULL CHECK (action_definition_type_id BETWEEN 1 AND 6),
        input_parameters text,
        endpoint_url text,
        http_method text,
        headers text,
        body text,
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE INDEX action_definition_tenant_name_idx ON action_definition (tenant_id, name, action_definition_id)`,
    `CREATE INDEX action_definition_name_idx ON action_definition (name, action_definition_id)`,
    `INSERT INTO action_definition (action_definition_id, name, action_definition_type_id, input_parameters) VALUES ${builtIns}`,
    `SELECT track_changes('action_definition')`,
    `CREATE TABLE rule (
        rule_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid REFERENCES tenant (tenant_id),
        subscription_id uuid REFERENCES subscription (subscription_id),
        enabled boolean NOT NULL DEFAULT true,
        name text NOT NULL,
        description text,
        rule_type_id smallint NOT NULL CHECK (rule_type_id BETWEEN 1 AND 6),
        match_lifetime_seconds integer NOT NULL CHECK (match_lifetime_seconds >= 300),
        use_sliding_expiration boolean NOT NULL DEFAULT false,
        time_conditions jsonb,
        conditions jsonb NOT NULL,
        match_actions jsonb NOT NULL DEFAULT '[]',
        expiration_actions jsonb NOT NULL DEFAULT '[]',
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE INDEX rule_tenant_name_idx ON rule (tenant_id, name, rule_id)`,
    `CREATE INDEX rule_name_idx ON rule (name, rule_id)`,
    `CREATE INDEX rule_enabled_idx ON rule (tenant_id, rule_type_id) WHERE enabled`,
    `SELECT track_changes('rule')`,
    `CREATE TABLE rule_match (
        rule_match_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        rule_id uuid NOT NULL REFERENCES rule (rule_id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        subject_id text NOT NULL,
        label text,
        rule_packet jsonb,
        reason jsonb,
        match_count integer NOT NULL DEFAULT 1,
        first_match timestamptz NOT NULL,
        last_match timestamptz NOT NULL,
        expires timestamptz NOT NULL,
        in_maintenance boolean NOT NULL DEFAULT false,
        completion_processed boolean NOT NULL DEFAULT false,
        created timestamptz NOT NULL DEFAULT now(),
        modified timestamptz NOT NULL DEFAULT now()
    ) WITH (fillfactor = 80)`,
    // Ingestion records its matches in the statement that stores the batch; a subject whose match
    // ran out but was not closed yet cannot be handled there, so the statement stops with this
    // error and the batch is stored again through the slower path that closes it first.
    `CREATE FUNCTION rule_match_ran_out() RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'A rule match ran out before it was closed' USING ERRCODE = 'CFS01';
      END $$`,
    `CREATE UNIQUE INDEX rule_match_open_idx ON rule_match (rule_id, subject_id) WHERE NOT completion_processed`,
    `CREATE INDEX rule_match_due_idx ON rule_match (expires) WHERE NOT completion_processed`,
    `CREATE INDEX rule_match_tenant_idx ON rule_match (tenant_id, expires DESC, rule_match_id)`,
    `CREATE INDEX rule_match_created_idx ON rule_match (tenant_id, created DESC, rule_match_id)`,
    `CREATE INDEX rule_match_rule_idx ON rule_match (rule_id, expires DESC, rule_match_id)`,
    `CREATE INDEX rule_match_subject_idx ON rule_match (subject_id, expires DESC, rule_match_id)`,
    `SELECT track_changes('rule_match')`,
    `CREATE TABLE rule_correlation_member (
        rule_id uuid NOT NULL REFERENCES rule (rule_id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        entity_id uuid NOT NULL,
        last_seen timestamptz NOT NULL,
        PRIMARY KEY (rule_id, tenant_id, entity_id)
    )`,
    `CREATE TABLE entity_color (
        entity_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        color text NOT NULL CHECK (color ~ '^[0-9A-F]{6}$'),
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE INDEX entity_color_tenant_idx ON entity_color (tenant_id)`,
    `SELECT track_changes('entity_color')`,
    `CREATE TABLE entity_log (
        entity_log_id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        entity_id uuid NOT NULL,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        created timestamptz NOT NULL DEFAULT now(),
        detail text NOT NULL
    )`,
    `CREATE INDEX entity_log_entity_idx ON entity_log (entity_id, created DESC, entity_log_id DESC)`,
    `CREATE TABLE action_history (
        action_history_id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        action_definition_id uuid NOT NULL,
        action_processed timestamptz NOT NULL DEFAULT now(),
        result_status_id smallint NOT NULL CHECK (result_status_id BETWEEN 0 AND 5),
        input_parameters text,
        result_detail text,
        correlation_id text,
        reference_id text,
        message_id text,
        protocol_action_id uuid,
        rule_match_id uuid,
        job_key text UNIQUE
    )`,
    `CREATE INDEX action_history_definition_idx ON action_history (action_definition_id, action_processed DESC)`,
    `CREATE INDEX action_history_tenant_idx ON action_history (tenant_id, action_processed DESC)`,
    `CREATE INDEX action_history_reference_idx ON action_history (reference_id) WHERE reference_id IS NOT NULL`,
    `CREATE INDEX action_history_message_idx ON action_history (message_id) WHERE message_id IS NOT NULL`,
    `CREATE INDEX action_history_match_idx ON action_history (rule_match_id) WHERE rule_match_id IS NOT NULL`,
    `SELECT track_changes('action_history')`,
  ]);
}

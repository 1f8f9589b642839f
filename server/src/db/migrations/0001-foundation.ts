import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/** Tenants, subscriptions, users and roles, the audit trail, identity-provider storage. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE tenant (
        tenant_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        internal_notification_email_address text,
        enabled boolean NOT NULL DEFAULT true,
        assignment_groups text NOT NULL DEFAULT '',
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE INDEX tenant_name_idx ON tenant (name, tenant_id)`,
    `CREATE TABLE subscription (
        subscription_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        name text NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE INDEX subscription_tenant_idx ON subscription (tenant_id, name)`,
    `CREATE TABLE app_role (
        role_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL UNIQUE,
        description text
    )`,
    `CREATE TABLE role_permission (
        role_id integer NOT NULL REFERENCES app_role (role_id) ON DELETE CASCADE,
        permission text NOT NULL,
        PRIMARY KEY (role_id, permission)
    )`,
    `CREATE TABLE app_user (
        user_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_name text NOT NULL UNIQUE,
        display_name text NOT NULL,
        email text,
        password_hash text,
        external_subject text UNIQUE,
        all_tenants boolean NOT NULL DEFAULT false,
        tenant_id uuid REFERENCES tenant (tenant_id),
        subscription_id uuid REFERENCES subscription (subscription_id),
        enabled boolean NOT NULL DEFAULT true,
        created timestamptz NOT NULL DEFAULT now(),
        modified timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX app_user_display_name_idx ON app_user (lower(display_name) text_pattern_ops)`,
    `CREATE TABLE user_role (
        user_id uuid NOT NULL REFERENCES app_user (user_id) ON DELETE CASCADE,
        role_id integer NOT NULL REFERENCES app_role (role_id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, role_id)
    )`,
    `CREATE TABLE user_tenant (
        user_id uuid NOT NULL REFERENCES app_user (user_id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, tenant_id)
    )`,
    `CREATE TABLE audit_event (
        audit_event_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        actor_user_id uuid,
        actor_name text NOT NULL,
        tenant_id uuid,
        entity_type text NOT NULL,
        entity_id text NOT NULL,
        action text NOT NULL,
        changes jsonb NOT NULL DEFAULT '{}'::jsonb
    )`,
    `CREATE INDEX audit_event_entity_idx ON audit_event (entity_type, entity_id, occurred_at DESC)`,
    `CREATE TABLE oidc_payload (
        id text NOT NULL,
        type text NOT NULL,
        payload jsonb NOT NULL,
        grant_id text,
        user_code text,
        uid text,
        expires_at timestamptz,
        consumed_at timestamptz,
        PRIMARY KEY (type, id)
    )`,
    `CREATE INDEX oidc_payload_grant_idx ON oidc_payload (grant_id)`,
    `CREATE INDEX oidc_payload_uid_idx ON oidc_payload (uid)`,
    `CREATE INDEX oidc_payload_user_code_idx ON oidc_payload (user_code)`,
    `CREATE INDEX oidc_payload_expires_idx ON oidc_payload (expires_at)`,
    `CREATE TABLE work_unit_type (
        work_unit_type_id integer PRIMARY KEY,
        name text NOT NULL UNIQUE,
        enabled boolean NOT NULL DEFAULT true
    )`,
    `INSERT INTO work_unit_type (work_unit_type_id, name) VALUES
        (1, 'Incident'), (2, 'Change Request'), (3, 'Intake'), (4, 'Request'), (5, 'Legacy')`,
  ]);
}

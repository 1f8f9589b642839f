import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * The compliance checklist (spec 002 §3 ComplianceControlSet, ControlStatus; §4 control status).
 *
 * - `control_set`: a catalogue of controls. Without a tenant it is the installation's (the shipped
 *   NIST baselines, or one an administrator of all tenants uploaded) and offered to every tenant;
 *   with one it is that tenant's own upload. A name is used once per owner (NULLS NOT DISTINCT:
 *   the shipped sets are seeded by name).
 * - `control`: one control of a set. `name` is the control's identifier in its catalogue ("AC-2(1)"),
 *   unique in the set; `family` groups the grid; `sort_order` keeps the catalogue's order.
 * - `control_status`: one tenant's status of one control for one compliance week. `check_date` is
 *   the week's first day as a calendar date (not an instant), so a week is the same seven dates in
 *   every time zone and across a daylight-saving change. One record per tenant, control and week.
 *   The screen reads a tenant's week for the controls of a set: (tenant_id, check_date, control_id).
 * - `control_poam`: the POA&M work unit opened for a control that stayed NonCompliant two weeks in
 *   a row; at most one open per tenant and control (the partial unique index), closed when the
 *   control becomes Compliant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE control_set (
        control_set_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid REFERENCES tenant (tenant_id),
        name text NOT NULL,
        description text,
        source text,
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE UNIQUE INDEX control_set_name_idx ON control_set (tenant_id, name) NULLS NOT DISTINCT`,
    `CREATE TABLE control (
        control_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        control_set_id uuid NOT NULL REFERENCES control_set (control_set_id) ON DELETE CASCADE,
        name text NOT NULL,
        family text NOT NULL,
        title text NOT NULL,
        description text NOT NULL DEFAULT '',
        sort_order integer NOT NULL,
        UNIQUE (control_set_id, name)
    )`,
    `CREATE INDEX control_set_order_idx ON control (control_set_id, sort_order)`,
    `CREATE TABLE control_status (
        control_status_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        control_id uuid NOT NULL REFERENCES control (control_id) ON DELETE CASCADE,
        check_date date NOT NULL,
        status text NOT NULL DEFAULT 'Notset' CHECK (status IN ('Notset', 'Compliant', 'NonCompliant', 'Poam', 'Exempt')),
        notes text NOT NULL DEFAULT '',
        created timestamptz NOT NULL DEFAULT now(),
        created_by text,
        modified timestamptz NOT NULL DEFAULT now(),
        modified_by text
    )`,
    `CREATE UNIQUE INDEX control_status_week_idx ON control_status (tenant_id, check_date, control_id)`,
    `CREATE INDEX control_status_control_idx ON control_status (control_id, tenant_id, check_date)`,
    `CREATE TABLE control_poam (
        control_poam_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        control_id uuid NOT NULL REFERENCES control (control_id) ON DELETE CASCADE,
        work_unit_id bigint NOT NULL REFERENCES work_unit (work_unit_id),
        opened_for date NOT NULL,
        opened timestamptz NOT NULL DEFAULT now(),
        closed timestamptz
    )`,
    `CREATE UNIQUE INDEX control_poam_open_idx ON control_poam (tenant_id, control_id) WHERE closed IS NULL`,
    `CREATE INDEX control_poam_work_unit_idx ON control_poam (work_unit_id)`,
  ]);
}

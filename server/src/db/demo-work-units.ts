import type { Transaction } from 'kysely';
import {
  EVENT_FOR_STATE,
  HISTORY_TYPES,
  stateChangeDetail,
  WORK_UNIT_EVENT_TYPES,
  WORK_UNIT_STATES,
  WORK_UNIT_TYPES,
} from '@cfs/contracts/work-units';
import type { DB as Database } from './schema.js';

/** Titles for the demo list; the set is spread over both tenants, states, severities and types. */
const INCIDENTS = [
  'VPN gateway drops sessions after 10 minutes',
  'Payroll export job failed overnight',
  'Printer queue stuck on floor 3',
  'Email delivery delayed for external recipients',
  'Disk space low on database server DB02',
  'Wi-Fi unreachable in the east wing',
  'Certificate expiring on the customer portal',
  'CPU saturation on the web farm',
  'Backup verification reported checksum errors',
  'Single sign-on loops for some users',
  'Shared drive permissions reset',
  'Phone system drops inbound calls',
  'Monitoring agent stopped reporting on APP07',
  'Slow response from the order API',
  'Laptop will not boot after update',
  'File server replication lag above threshold',
];
const CHANGES = [
  'Patch domain controllers to the monthly baseline',
  'Replace core switch in data centre B',
  'Rotate the customer portal TLS certificate',
  'Upgrade the database cluster to the next minor version',
  'Enable MFA for the remote access gateway',
];
const INTAKES = [
  'New starter: laptop and accounts for finance',
  'Request a new shared mailbox for the audit team',
  'Access to the reporting workspace',
];

const STATES = [
  WORK_UNIT_STATES.New,
  WORK_UNIT_STATES.New,
  WORK_UNIT_STATES.Acknowledged,
  WORK_UNIT_STATES.InProgress,
  WORK_UNIT_STATES.OnHold,
  WORK_UNIT_STATES.Mitigated,
  WORK_UNIT_STATES.Resolved,
  WORK_UNIT_STATES.Closed,
];

const MINUTE = 60_000;

/** When a unit reached each state after New, in minutes after it was acknowledged. */
const MINUTES_TO: Record<number, number> = {
  [WORK_UNIT_STATES.Acknowledged]: 0,
  [WORK_UNIT_STATES.InProgress]: 15,
  [WORK_UNIT_STATES.OnHold]: 45,
  [WORK_UNIT_STATES.Mitigated]: 75,
  [WORK_UNIT_STATES.Resolved]: 105,
  [WORK_UNIT_STATES.Closed]: 165,
};

function minutesTo(state: number): number {
  const minutes = MINUTES_TO[state];
  if (minutes === undefined) throw new Error(`The demo has no time for reaching state ${state}.`);
  return minutes;
}

/**
 * The states a unit passed through to reach its own, after New: acknowledged and in progress on
 * the way to any later state, resolved before it was closed. Its events and history say so, and
 * its service level clocks (which follow the events) stopped or paused then, as in the portal.
 */
function pathTo(state: number): number[] {
  if (state === WORK_UNIT_STATES.New) return [];
  const before = [WORK_UNIT_STATES.Acknowledged, WORK_UNIT_STATES.InProgress].filter((each) => each < state);
  return [...before, ...(state === WORK_UNIT_STATES.Closed ? [WORK_UNIT_STATES.Resolved] : []), state];
}

/**
 * When the n-th unit was acknowledged: ten minutes after it came in, or, one in six, six hours
 * after (past the default response targets of Sev0 to Sev2), so the Service Level Report shows
 * targets met and missed.
 */
const acknowledgedAfter = (n: number) => (n % 6 === 5 ? 360 : 10) * MINUTE;

/** About sixty work units over the last weeks, with a note or two each, so the list looks alive. */
export interface DemoTenant {
  tenantId: string;
  groups: string[];
  staff: string;
  /** The n-th unit's values of the tenant's custom fields. */
  customValues: (n: number) => Partial<Record<'custom_value_1' | 'custom_value_2' | 'custom_value_3', string | null>>;
}

export async function seedDemoWorkUnits(trx: Transaction<Database>, tenants: DemoTenant[]): Promise<void> {
  const now = Date.now();
  let n = 0;
  for (const tenant of tenants) {
    const items = [
      ...INCIDENTS.map((title) => ({ title, type: WORK_UNIT_TYPES.Incident })),
      ...CHANGES.map((title) => ({ title, type: WORK_UNIT_TYPES.ChangeRequest })),
      ...INTAKES.map((title) => ({ title, type: WORK_UNIT_TYPES.Intake })),
    ];
    for (const item of items) {
      n += 1;
      const created = new Date(now - (n * 7 + (n % 5) * 3) * 3_600_000);
      const state = STATES[n % STATES.length] ?? WORK_UNIT_STATES.New;
      const assignee = state === WORK_UNIT_STATES.New ? null : tenant.staff;
      const isChange = item.type === WORK_UNIT_TYPES.ChangeRequest;
      const acknowledged = created.getTime() + acknowledgedAfter(n);
      const steps = pathTo(state).map((to) => ({ to, at: new Date(acknowledged + minutesTo(to) * MINUTE) }));
      const resolvedAt = steps.find((step) => step.to === WORK_UNIT_STATES.Resolved)?.at ?? null;
      const row = await trx
        .insertInto('work_unit')
        .values({
          tenant_id: tenant.tenantId,
          work_unit_type_id: item.type,
          title: item.title,
          description: `${item.title}. Reported through the service desk; see the notes for what has been tried.`,
          severity_id: n % 5,
          state_id: state,
          assigned_to: assignee,
          assignment_group: tenant.groups[n % tenant.groups.length] ?? null,
          source: n % 3 === 0 ? 'Monitoring' : 'Service desk',
          stakeholder_full_name: ['Jordan Lee', 'Sam Patel', 'Alex Morgan', 'Riley Chen'][n % 4] ?? null,
          stakeholder_email_address: `${['jordan', 'sam', 'alex', 'riley'][n % 4]}@customer.example`,
          stakeholder_phone_number: `+1 555 01${String(n).padStart(2, '0')}`,
          resolution: isChange
            ? 'Change completed as planned.'
            : state >= WORK_UNIT_STATES.Resolved
              ? 'Fixed and verified with the stakeholder.'
              : null,
          implementation_plan: isChange ? '1. Announce window. 2. Apply change. 3. Verify.' : null,
          rollback_plan: isChange ? 'Restore the previous configuration from backup.' : null,
          affected_resources: isChange ? 'Production' : null,
          environment: isChange ? 'Production' : null,
          expected_cfs_alerts: isChange ? 'Heartbeat alerts during the window' : null,
          approver1: isChange ? 'operator@cfs.example' : null,
          // Approver 2 is someone other than approver 1, or nobody (two approvals come from two people).
          approver2: isChange && n % 2 === 0 ? 'admin@cfs.example' : null,
          planned_start_time: isChange ? new Date(now + n * 86_400_000) : null,
          planned_finish_time: isChange ? new Date(now + n * 86_400_000 + 2 * 3_600_000) : null,
          created,
          created_by: 'seed',
          modified: steps.at(-1)?.at ?? new Date(created.getTime() + 30 * MINUTE),
          modified_by: 'seed',
          resolved: resolvedAt,
          ...tenant.customValues(n),
        })
        .returning(['work_unit_id'])
        .executeTakeFirstOrThrow();
      // Each state change as the portal records one: a history line, its state's event and OnChange.
      const changes = steps.map((step, index) => ({ from: steps[index - 1]?.to ?? WORK_UNIT_STATES.New, ...step }));
      await trx
        .insertInto('work_unit_note')
        .values([
          {
            work_unit_id: row.work_unit_id,
            tenant_id: tenant.tenantId,
            detail: 'Work unit created as New.',
            history_type: HISTORY_TYPES.WorkUnitEvent,
            created,
            created_by: 'seed',
          },
          {
            work_unit_id: row.work_unit_id,
            tenant_id: tenant.tenantId,
            detail: 'Called the stakeholder; collecting logs.',
            history_type: null,
            created: new Date(created.getTime() + 1_800_000),
            created_by: 'seed',
          },
          ...changes.map((change) => ({
            work_unit_id: row.work_unit_id,
            tenant_id: tenant.tenantId,
            detail: stateChangeDetail(change.from, change.to),
            history_type: HISTORY_TYPES.WorkUnitStateChange,
            created: change.at,
            created_by: 'seed',
          })),
        ])
        .execute();
      await trx
        .insertInto('work_unit_event')
        .values([
          {
            work_unit_id: row.work_unit_id,
            tenant_id: tenant.tenantId,
            event_type_id: WORK_UNIT_EVENT_TYPES.OnNew,
            from_state_id: null,
            to_state_id: WORK_UNIT_STATES.New,
            created,
            created_by: 'seed',
          },
          ...changes.flatMap((change) =>
            [EVENT_FOR_STATE[change.to], WORK_UNIT_EVENT_TYPES.OnChange]
              .filter((type) => type !== undefined)
              .map((event_type_id) => ({
                work_unit_id: row.work_unit_id,
                tenant_id: tenant.tenantId,
                event_type_id,
                from_state_id: change.from,
                to_state_id: change.to,
                created: change.at,
                created_by: 'seed',
              })),
          ),
        ])
        .execute();
    }
  }
}

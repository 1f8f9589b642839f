import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import type { Tx } from '../../db/database.js';
import { DEMO } from '../../db/demo-ids.js';
import { scoped } from '../../db/scoped.js';

const HOUR = 3_600_000;

/**
 * Contoso's communications, so the grid, the drawer and the reports have something to show: an
 * open outage linked to a demo incident with a past and a next step, one whose next update is
 * already due (overdue), and a resolved one with its root cause.
 */
export async function seedDemoCommunications(trx: Tx): Promise<void> {
  const tx = scoped(trx, { kind: 'some', tenantIds: [DEMO.contoso] });
  const now = Date.now();
  const at = (hours: number) => new Date(now + hours * HOUR);
  const seeded = { tenant_id: DEMO.contoso, created_by: 'seed', modified_by: 'seed', user_changed_by: 'seed' };
  const [outage] = await tx
    .insertInto('work_unit_communication', [
      {
        ...seeded,
        title: 'Email delivery delayed for Contoso staff',
        service_manager: 'Oscar Operator',
        status: 'ConfirmedImpact',
        details: 'Outbound email is queueing at the mail gateway; messages are delivered up to 40 minutes late.',
        current_impact: 'Outbound email delayed by up to 40 minutes',
        maximum_impact: 'All outbound email from Contoso offices',
        impacted_services: 'Email',
        internal_bridge: 'Teams: Contoso Mail Bridge',
        event_started: at(-3),
        event_engaged: at(-2.5),
        next_update: at(1),
        next_internal_update: at(0.5),
        created: at(-2.5),
        modified: at(-1),
        user_changed: at(-1),
      },
      {
        ...seeded,
        title: 'Payroll reporting unavailable',
        service_manager: 'Oscar Operator',
        status: 'Investigating',
        details: 'The reporting service answers with errors since the overnight export.',
        current_impact: 'Payroll reports cannot be opened',
        impacted_services: 'Reporting',
        event_started: at(-6),
        next_update: at(-0.5),
        next_internal_update: at(-1),
        created: at(-5),
        modified: at(-2),
        user_changed: at(-2),
      },
      {
        ...seeded,
        title: 'VPN sign-in failures resolved',
        service_manager: 'Ada Admin',
        status: 'Resolved',
        details: 'Remote staff could not sign in to the VPN.',
        root_cause: 'An expired certificate on the VPN concentrator.',
        current_impact: 'None',
        maximum_impact: 'Remote staff could not connect',
        impacted_services: 'VPN',
        customer_assistance_required: true,
        event_started: at(-50),
        event_engaged: at(-49.5),
        event_mitigated: at(-48),
        event_resolved: at(-47),
        created: at(-49.5),
        modified: at(-47),
        user_changed: at(-47),
      },
    ])
    .returning('work_unit_communication_id')
    .execute();
  if (!outage) return;
  const id = outage.work_unit_communication_id;
  await tx
    .insertInto(
      'work_unit_communication_activity',
      [
        {
          ...seeded,
          work_unit_communication_id: id,
          activity_type: 'ResolutionActivity',
          details: 'Mail gateway queue cleared and a second relay added.',
          is_customer_facing: true,
          is_complete: true,
          completed: at(-1.5),
          created: at(-2),
        },
        {
          ...seeded,
          work_unit_communication_id: id,
          activity_type: 'TaskActivity',
          details: 'Watch the queue length for an hour before declaring the service restored.',
          is_customer_facing: true,
          created: at(-1),
        },
      ].map(({ user_changed_by: _u, ...activity }) => activity),
    )
    .execute();
  const incident = await tx
    .selectFrom('work_unit')
    .select('work_unit_id')
    .where('tenant_id', '=', DEMO.contoso)
    .where('work_unit_type_id', '=', WORK_UNIT_TYPES.Incident)
    .where('state_id', 'in', [WORK_UNIT_STATES.New, WORK_UNIT_STATES.Acknowledged])
    .orderBy('work_unit_id')
    .limit(1)
    .executeTakeFirst();
  if (incident) {
    await tx
      .insertInto('work_unit_communication_work_unit', {
        work_unit_communication_id: id,
        work_unit_id: incident.work_unit_id,
        tenant_id: DEMO.contoso,
        created_by: 'seed',
      })
      .execute();
  }
}

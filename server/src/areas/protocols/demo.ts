import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { WORK_UNIT_EVENT_TYPES, WORK_UNIT_STATES } from '@cfs/contracts/work-units';
import type { Tx } from '../../db/database.js';
import { DEMO } from '../../db/demo-ids.js';
import { scoped } from '../../db/scoped.js';
import { protocolStepWriter } from '../../engines/protocols/step-writer.js';
import { systemWorkUnitWriter } from '../../engines/work-units/system-writer.js';

/**
 * A service desk protocol for Contoso, so that `npm start` shows protocols at work: a unit that
 * follows it emails its stakeholder when it is opened and when it is resolved, and offers, once
 * acknowledged, a manual step that tells the tenant's notification address. The newest open
 * Contoso incidents follow it, so the Outbox and their Pending Actions have something to show.
 */
export async function seedDemoProtocols(trx: Tx): Promise<void> {
  const tx = scoped(trx, { kind: 'some', tenantIds: [DEMO.contoso] });
  const protocol = await tx
    .insertInto('protocol', {
      tenant_id: DEMO.contoso,
      name: 'Service desk standard',
      description:
        'Tell the stakeholder when the unit opens and when it is resolved; tell the NOC by hand once acknowledged.',
      timer_interval_seconds: 3600,
      manual_actions: 'Once acknowledged, tell the NOC from Pending Actions.',
      created_by: 'seed',
      modified_by: 'seed',
    })
    .returning('protocol_id')
    .executeTakeFirstOrThrow();
  const step = (
    eventTypeId: number,
    template: string,
    summary: string,
    sequence: number,
    runAutomatically: boolean,
  ) => ({
    protocol_id: protocol.protocol_id,
    tenant_id: DEMO.contoso,
    action_definition_id: BUILT_IN_ACTIONS.sendEmail.id,
    work_unit_event_type_id: eventTypeId,
    parameters: JSON.stringify({ Template: template, IsImportant: 'false' }),
    sequence,
    summary,
    run_automatically: runAutomatically,
    repeatable: !runAutomatically,
    created_by: 'seed',
    modified_by: 'seed',
  });
  await protocolStepWriter().create(trx, tx.scope, [
    step(WORK_UNIT_EVENT_TYPES.OnNew, 'Detailed', 'Tell the stakeholder the unit is open', 1, true),
    step(
      WORK_UNIT_EVENT_TYPES.OnAcknowledged,
      'CfsInternalWuCommNotification',
      'Tell the NOC the unit is being worked on',
      1,
      false,
    ),
    step(WORK_UNIT_EVENT_TYPES.OnResolved, 'AllClear', 'Tell the stakeholder all is clear', 1, true),
  ]);
  const newest = await tx
    .selectFrom('work_unit')
    .select('work_unit_id')
    .where('tenant_id', '=', DEMO.contoso)
    .where('state_id', 'in', [WORK_UNIT_STATES.New, WORK_UNIT_STATES.Acknowledged])
    .orderBy('work_unit_id', 'desc')
    .limit(5)
    .execute();
  if (newest.length > 0) {
    await systemWorkUnitWriter().followProtocol(trx, {
      tenantId: DEMO.contoso,
      workUnitIds: newest.map((unit) => unit.work_unit_id),
      protocolId: protocol.protocol_id,
    });
  }
}

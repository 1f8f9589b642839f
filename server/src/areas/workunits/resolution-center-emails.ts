import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import type { Tx } from '../../db/database.js';
import { enqueueActionRun } from '../../engines/actions/runner.js';

/** A Resolution Center request is known by its source (set when it is filed; spec 001 §5). */
export const RESOLUTION_CENTER_SOURCE = 'Resolution Center';

export type ResolutionCenterEmail = 'ResolutionCenterCreated' | 'ResolutionCenterResolved';

/**
 * The requester's email (spec 001 §2: ResolutionCenterCreated when the request is filed,
 * ResolutionCenterResolved when it becomes Resolved), sent by the Send Email built-in through a
 * job enqueued in the transaction that causes it; once per request and template, whatever
 * happens after (a unit resolved, reopened and resolved again is told once).
 */
export async function enqueueResolutionCenterEmail(
  trx: Tx,
  unit: { workUnitId: number; tenantId: string },
  template: ResolutionCenterEmail,
  actor: string,
): Promise<void> {
  await enqueueActionRun(
    trx,
    {
      actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
      tenantId: unit.tenantId,
      parameters: { Template: template, IsImportant: 'false' },
      origin: { kind: 'workUnit', workUnitId: unit.workUnitId, reason: template, triggeredBy: actor },
    },
    `resolutioncenter:${template}:${unit.workUnitId}`,
  );
}

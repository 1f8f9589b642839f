import { sql } from 'kysely';
import { z } from 'zod';
import { addDays, POAM_REFERENCE_TYPE, poamTitle, type ControlStatusValue } from '@cfs/contracts/compliance';
import { SEVERITIES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { enqueueMany } from '../../engines/jobs/queue.js';
import { defineTask } from '../../engines/jobs/task.js';
import { systemWorkUnitWriter } from '../../engines/work-units/system-writer.js';
import { onDate } from './queries.js';

/**
 * POA&M work units (beyond the spec): a control NonCompliant in two consecutive compliance weeks
 * opens one work unit for its tenant, related to the control; the control becoming Compliant
 * (in that week or a later one) resolves it with a note. The job runs after the status is written
 * and reads the statuses as they are then, so running it twice, or for an older change, does no harm.
 */
const payload = z.object({ tenantId: z.uuid(), controlId: z.uuid(), checkDate: z.string() });
type PoamCheck = z.infer<typeof payload>;

/** Statuses that can open or close a POA&M; writing any other needs no check. */
const RELEVANT: readonly string[] = ['NonCompliant', 'Compliant'] satisfies ControlStatusValue[];

/** The control stands where a user would as the author (its id names no user, its name says which control). */
const actor = (controlId: string, controlName: string) => ({ id: controlId, name: `Compliance: ${controlName}` });

async function openPoam(
  db: Db,
  scope: TenantScope,
  check: PoamCheck,
  control: { name: string; title: string; set_name: string },
  weeks: { first: string; second: string },
): Promise<void> {
  const open = await scoped(db, scope)
    .selectFrom('control_poam')
    .select('control_poam_id')
    .where('tenant_id', '=', check.tenantId)
    .where('control_id', '=', check.controlId)
    .where('closed', 'is', null)
    .executeTakeFirst();
  if (open) return;
  try {
    await systemWorkUnitWriter().open(
      db,
      {
        tenantId: check.tenantId,
        title: poamTitle(control.name, control.title),
        description: `Control ${control.name} (${control.title}) of "${control.set_name}" was NonCompliant in the compliance weeks starting ${weeks.first} and ${weeks.second}. Record the plan of action and milestones here; this work unit is resolved when the control is Compliant again.`,
        severityId: SEVERITIES.Sev3,
        workUnitTypeId: WORK_UNIT_TYPES.Incident,
        relation: { referenceType: POAM_REFERENCE_TYPE, referenceId: check.controlId },
        actor: actor(check.controlId, control.name),
      },
      (trx, workUnitId) =>
        scoped(trx, scope)
          .insertInto('control_poam', {
            tenant_id: check.tenantId,
            control_id: check.controlId,
            work_unit_id: workUnitId,
            opened_for: weeks.second,
          })
          .execute()
          .then(() => undefined),
    );
  } catch (error) {
    // Another run opened it at the same moment: the partial unique index kept it to one, and this
    // run's work unit was rolled back with its link.
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === '23505') return;
    throw error;
  }
}

async function closePoam(
  db: Db,
  scope: TenantScope,
  check: PoamCheck,
  control: { name: string; title: string },
): Promise<void> {
  const open = await scoped(db, scope)
    .selectFrom('control_poam')
    .select(['control_poam_id', 'work_unit_id', sql<string>`to_char(opened_for, 'YYYY-MM-DD')`.as('opened_for')])
    .where('tenant_id', '=', check.tenantId)
    .where('control_id', '=', check.controlId)
    .where('closed', 'is', null)
    .executeTakeFirst();
  // A Compliant week before the one that opened it says nothing about now.
  if (!open || check.checkDate < open.opened_for) return;
  await systemWorkUnitWriter().resolve(db, {
    tenantId: check.tenantId,
    workUnitId: open.work_unit_id,
    note: `Control ${control.name} (${control.title}) is Compliant in the compliance week starting ${check.checkDate}: the POA&M is closed.`,
    actor: actor(check.controlId, control.name),
  });
  await scoped(db, scope)
    .updateTable('control_poam')
    .set({ closed: new Date() })
    .where('control_poam_id', '=', open.control_poam_id)
    .where('closed', 'is', null)
    .execute();
}

export const poamTask = defineTask({
  name: 'compliance.poam',
  payload,
  attempts: 5,
  perform: async (check, { db }) => {
    const scope: TenantScope = { kind: 'some', tenantIds: [check.tenantId] };
    const control = await scoped(db, scope)
      .selectFrom('control_set')
      .innerJoin('control', 'control.control_set_id', 'control_set.control_set_id')
      .select(['control.name', 'control.title', 'control_set.name as set_name'])
      .where('control.control_id', '=', check.controlId)
      .executeTakeFirst();
    if (!control) return;
    const before = addDays(check.checkDate, -7);
    const after = addDays(check.checkDate, 7);
    const rows = await scoped(db, scope)
      .selectFrom('control_status')
      .select(['status', sql<string>`to_char(check_date, 'YYYY-MM-DD')`.as('week')])
      .where('tenant_id', '=', check.tenantId)
      .where('control_id', '=', check.controlId)
      .where('check_date', 'in', [onDate(before), onDate(check.checkDate), onDate(after)])
      .execute();
    const statusOf = (week: string) => rows.find((row) => row.week === week)?.status;
    const current = statusOf(check.checkDate);
    if (current === 'NonCompliant') {
      // The week written may be the first or the second of the pair (a past week filled in late).
      if (statusOf(before) === 'NonCompliant')
        await openPoam(db, scope, check, control, { first: before, second: check.checkDate });
      else if (statusOf(after) === 'NonCompliant')
        await openPoam(db, scope, check, control, { first: check.checkDate, second: after });
    } else if (current === 'Compliant') {
      await closePoam(db, scope, check, control);
    }
  },
});

/** In the transaction that wrote the statuses: a POA&M check for each that is NonCompliant or Compliant now. */
export async function enqueuePoamChecks(
  trx: Tx,
  written: readonly { tenantId: string; controlId: string; checkDate: string; status: string; at: Date }[],
): Promise<void> {
  const jobs = written
    .filter((status) => RELEVANT.includes(status.status))
    .map((status) => ({
      payload: { tenantId: status.tenantId, controlId: status.controlId, checkDate: status.checkDate },
      key: `${status.tenantId}:${status.controlId}:${status.checkDate}:${status.status}:${status.at.toISOString()}`,
    }));
  await enqueueMany(trx, poamTask, jobs);
}

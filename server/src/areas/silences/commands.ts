import { SILENCE_MESSAGES, type Silence, type SilenceValues } from '@cfs/contracts/silences';
import { entityAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { createSilence, endSilence } from '../../engines/rules/silences.js';
import { BadRequestError } from '../../http/errors.js';

/** Records an action on a silence in the change history, in the write's transaction. */
const recordChange = entityAudit(
  'ruleSilence',
  (row: { rule_silence_id: string; tenant_id: string | null }) => row.rule_silence_id,
);

type SilenceRow = Awaited<ReturnType<typeof createSilence>>;

function present(row: SilenceRow): Silence {
  return {
    ruleSilenceId: row.rule_silence_id,
    tenantId: row.tenant_id,
    ruleId: row.rule_id,
    subjectId: row.subject_id,
    label: row.label,
    starts: row.starts,
    ends: row.ends,
    note: row.note,
    created: row.created,
    createdBy: row.created_by,
  };
}

/** PUT v1/silences: a silence of one of the caller's tenants, of one of its rules (or the installation's) or every rule. */
export async function addSilence(db: Db, user: Principal, input: SilenceValues): Promise<Silence> {
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, user.tenantScope);
    const errors: Record<string, string[]> = {};
    if (!(await tx.hasTenant(input.tenantId))) errors.tenantId = [SILENCE_MESSAGES.tenantRequired];
    if (input.ruleId !== null) {
      const rule = await tx
        .selectFrom('rule')
        .select('tenant_id')
        .where('rule_id', '=', input.ruleId)
        .executeTakeFirst();
      if (!rule || (rule.tenant_id !== null && rule.tenant_id !== input.tenantId))
        errors.ruleId = [SILENCE_MESSAGES.ruleOfTenant];
    }
    if (Object.keys(errors).length > 0) throw new BadRequestError(SILENCE_MESSAGES.saveFailed, errors);
    const row = await createSilence(tx, input, user.userName);
    const silence = present(row);
    await recordChange(trx, user, row, 'create', { ...input });
    return silence;
  });
}

/** DELETE v1/silences/{ruleSilenceId}: ends it now (one that has not started goes); one ended already stays as it was, unrecorded. */
export async function stopSilence(db: Db, user: Principal, ruleSilenceId: string): Promise<{ message: string }> {
  return db.transaction().execute(async (trx) => {
    const ended = await endSilence(scoped(trx, user.tenantScope), ruleSilenceId);
    if (ended.changed) await recordChange(trx, user, ended, 'delete', { ends: ended.ends });
    return { message: ended.message };
  });
}

import { RULE_MATCH_MESSAGES } from '@cfs/contracts/rule-matches';
import { recordAudit } from '../../audit/audit.js';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { acknowledgeMatches, silenceMatches } from '../../engines/rules/silences.js';

/** The matches' tenants, for the audit: one entry per match. */
async function audit(
  trx: Parameters<typeof recordAudit>[0],
  user: Principal,
  ids: readonly string[],
  action: string,
  changes: Record<string, unknown>,
) {
  const rows = await scoped(trx, user.tenantScope)
    .selectFrom('rule_match')
    .select(['rule_match_id', 'tenant_id'])
    .where('rule_match_id', 'in', [...new Set(ids)])
    .execute();
  for (const row of rows)
    await recordAudit(trx, user, {
      entityType: 'ruleMatch',
      entityId: row.rule_match_id,
      tenantId: row.tenant_id,
      action,
      changes,
    });
}

/** POST v1/rulematches/acknowledge. */
export async function acknowledge(db: Db, user: Principal, ids: readonly string[], note: string | null) {
  return db.transaction().execute(async (trx) => {
    const count = await acknowledgeMatches(scoped(trx, user.tenantScope), ids, user.userName, note);
    await audit(trx, user, ids, 'acknowledge', { note });
    return { count, message: RULE_MATCH_MESSAGES.acknowledged(count) };
  });
}

/** POST v1/rulematches/silence. */
export async function silence(db: Db, user: Principal, ids: readonly string[], duration: string, note: string | null) {
  return db.transaction().execute(async (trx) => {
    const count = await silenceMatches(scoped(trx, user.tenantScope), ids, duration, note, user.userName);
    await audit(trx, user, ids, 'silence', { duration, note });
    return { count, message: RULE_MATCH_MESSAGES.silenced(count) };
  });
}

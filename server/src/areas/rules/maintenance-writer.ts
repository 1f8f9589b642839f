import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import { scoped } from '../../db/scoped.js';
import type { MaintenanceRuleWriter } from '../../engines/maintenance/owner-ports.js';

/** The maintenance engine's rule writes (engines/maintenance/owner-ports.ts); the engine acts for every tenant. */
export const maintenanceRuleWriter: MaintenanceRuleWriter = {
  remove: (trx, changeWorkUnitId) =>
    scoped(trx, ALL_TENANTS)
      .deleteFrom('rule')
      .where('change_work_unit_id', '=', changeWorkUnitId)
      .returning(['rule_id', 'name', 'tenant_id'])
      .executeTakeFirst(),

  async create(trx, rule) {
    const row = await scoped(trx, ALL_TENANTS)
      .insertInto('rule', rule)
      .returning(['rule_id'])
      .executeTakeFirstOrThrow();
    return row.rule_id;
  },

  async update(trx, ruleId, changes) {
    await scoped(trx, ALL_TENANTS).updateTable('rule').set(changes).where('rule_id', '=', ruleId).execute();
  },
};

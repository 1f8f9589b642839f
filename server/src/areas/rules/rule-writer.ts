import { sql } from 'kysely';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import { scoped } from '../../db/scoped.js';
import type { RuleWriter } from '../../engines/rules/rule-writer.js';

/** Other areas' changes of rules (engines/rules/rule-writer.ts); a deleted action leaves the rules of every tenant. */
export const ruleWriter: RuleWriter = {
  removeAction(trx, actionDefinitionId, modifiedBy) {
    const runs = JSON.stringify([{ ActionDefinitionId: actionDefinitionId }]);
    const without = (column: 'match_actions' | 'expiration_actions') =>
      sql<string>`COALESCE((SELECT jsonb_agg(entry ORDER BY position) FROM jsonb_array_elements(${sql.ref(column)}) WITH ORDINALITY AS e(entry, position) WHERE entry->>'ActionDefinitionId' IS DISTINCT FROM ${actionDefinitionId}), '[]'::jsonb)`;
    return scoped(trx, ALL_TENANTS)
      .updateTable('rule')
      .set({
        match_actions: without('match_actions'),
        expiration_actions: without('expiration_actions'),
        modified: new Date(),
        modified_by: modifiedBy,
      })
      .where(sql<boolean>`(match_actions @> ${runs}::jsonb OR expiration_actions @> ${runs}::jsonb)`)
      .returning(['rule_id', 'tenant_id', 'name'])
      .execute();
  },
};

import { RULE_MATCH_LIST } from '@cfs/contracts/rule-matches';
import { silencedUntilSql } from '../../engines/rules/silences.js';
import { defineResource } from '../../odata/resource.js';

/** The rule a match names, as `$expand=rule` shows it. */
const ruleReference = defineResource({
  table: 'rule',
  key: 'ruleId',
  fields: { ruleId: { type: 'guid' }, name: { type: 'string' }, ruleTypeId: { type: 'integer' } },
});

/**
 * GET /v1/rulematches (spec 002 §7, §9): 50 a page, newest first, by default; the rule drawer
 * asks 100 by expires descending. Filtered by ruleId (the rule drawer) or subjectId (a block, a
 * packet, a work unit), each served by its index (rule_match_rule_idx, rule_match_subject_idx,
 * both ordered by expires), and by the caller's tenants (rule_match_tenant_idx).
 */
export const ruleMatchesResource = defineResource({
  table: 'rule_match',
  key: 'ruleMatchId',
  fields: {
    ruleMatchId: { type: 'guid' },
    ruleId: { type: 'guid' },
    tenantId: { type: 'guid' },
    label: { type: 'string' },
    subjectId: { type: 'string' },
    rulePacket: { type: 'json' },
    matchCount: { type: 'integer' },
    firstMatch: { type: 'datetime' },
    lastMatch: { type: 'datetime' },
    expires: { type: 'datetime' },
    inMaintenance: { type: 'boolean' },
    completionProcessed: { type: 'boolean' },
    pending: { type: 'boolean' },
    recovers: { type: 'boolean' },
    outcome: { type: 'string' },
    acknowledged: { type: 'datetime' },
    acknowledgedBy: { type: 'string' },
    acknowledgement: { type: 'string', sortable: false },
    silencedUntil: { type: 'datetime', sql: (col) => silencedUntilSql(col), filterable: false, sortable: false },
    reason: { type: 'json' },
    created: { type: 'datetime' },
    modified: { type: 'datetime' },
  },
  relations: {
    rule: { kind: 'one', resource: () => ruleReference, column: 'rule_id' },
  },
  defaultOrderBy: RULE_MATCH_LIST.defaultOrderBy,
  defaultTop: RULE_MATCH_LIST.defaultPageSize,
});

import { SILENCE_LIST } from '@cfs/contracts/silences';
import { defineResource } from '../../odata/resource.js';

/** The rule a silence names, as `$expand=rule` shows it. */
const ruleReference = defineResource({
  table: 'rule',
  key: 'ruleId',
  fields: { ruleId: { type: 'guid' }, name: { type: 'string' } },
});

/**
 * GET /v1/silences: the caller's tenants' silences, soonest to end first, by default those not
 * over (`ends gt now` is the screen's filter); read by rule_silence_tenant_idx.
 */
export const silencesResource = defineResource({
  table: 'rule_silence',
  key: 'ruleSilenceId',
  fields: {
    ruleSilenceId: { type: 'guid' },
    tenantId: { type: 'guid' },
    ruleId: { type: 'guid' },
    subjectId: { type: 'string' },
    label: { type: 'string' },
    starts: { type: 'datetime' },
    ends: { type: 'datetime' },
    note: { type: 'string', sortable: false },
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
  },
  relations: {
    rule: { kind: 'one', resource: () => ruleReference, column: 'rule_id' },
  },
  defaultOrderBy: SILENCE_LIST.defaultOrderBy,
  defaultTop: SILENCE_LIST.defaultPageSize,
});

import { ACTION_HISTORY_LIST } from '@cfs/contracts/action-histories';
import { defineResource } from '../../odata/resource.js';

/** The action a history row ran, as `$expand=actionDefinition` names it. */
const actionReference = defineResource({
  table: 'action_definition',
  key: 'actionDefinitionId',
  fields: { actionDefinitionId: { type: 'guid' }, name: { type: 'string' } },
});

/**
 * GET v1/actionHistories: newest first. The filters the portal sends are served by indexes: a rule
 * match's runs (ruleMatchId), an action's (actionDefinitionId), a message's and a reference's, and
 * the caller's tenants (all by actionProcessed).
 */
export const actionHistoriesResource = defineResource({
  table: 'action_history',
  key: 'actionHistoryId',
  fields: {
    actionHistoryId: { type: 'integer' },
    actionDefinitionId: { type: 'guid' },
    tenantId: { type: 'guid' },
    actionProcessed: { type: 'datetime' },
    resultStatusId: { type: 'integer' },
    inputParameters: { type: 'string' },
    resultDetail: { type: 'string' },
    correlationId: { type: 'string' },
    referenceId: { type: 'string' },
    messageId: { type: 'string' },
    protocolActionId: { type: 'guid' },
    ruleMatchId: { type: 'guid' },
    workUnitId: { type: 'integer' },
  },
  relations: {
    actionDefinition: { kind: 'one', resource: () => actionReference, column: 'action_definition_id' },
  },
  defaultOrderBy: ACTION_HISTORY_LIST.defaultOrderBy,
  defaultTop: ACTION_HISTORY_LIST.defaultPageSize,
});

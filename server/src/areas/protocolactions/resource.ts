import { defineResource } from '../../odata/resource.js';

/** The action a step runs, as `$expand=actionDefinition` shows it. */
const actionDefinitionReference = defineResource({
  table: 'action_definition',
  key: 'actionDefinitionId',
  fields: {
    actionDefinitionId: { type: 'guid' },
    name: { type: 'string' },
    description: { type: 'string' },
    inputParameters: { type: 'string' },
  },
});

/**
 * GET v1/protocolActions (spec 002 §7): a protocol's steps (`$filter=protocolId eq N`), by event
 * and then in the order they run, with the action they run (`$expand=actionDefinition`).
 */
export const protocolActionsResource = defineResource({
  table: 'protocol_action',
  key: 'protocolActionId',
  fields: {
    protocolActionId: { type: 'guid' },
    protocolId: { type: 'integer' },
    actionDefinitionId: { type: 'guid' },
    workUnitEventTypeId: { type: 'integer' },
    parameters: { type: 'json' },
    sequence: { type: 'integer' },
    summary: { type: 'string' },
    runAutomatically: { type: 'boolean' },
    repeatable: { type: 'boolean' },
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
    modified: { type: 'datetime' },
    modifiedBy: { type: 'string' },
  },
  relations: {
    actionDefinition: { kind: 'one', resource: () => actionDefinitionReference, column: 'action_definition_id' },
  },
  defaultOrderBy: 'workUnitEventTypeId asc, sequence asc',
});

import { protocolActionInputSchema, protocolActionSchema } from '@cfs/contracts/protocols';
import { textParameters } from '../../engines/protocols/tasks.js';
import { defineEntity } from '../../odata/entity.js';
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
 * A protocol's step, described once on its contract: GET v1/protocolActions (spec 002 §7), a
 * protocol's steps (`$filter=protocolId eq N`), by event and then in the order they run, with the
 * action they run (`$expand=actionDefinition`); one step; and the columns an input writes (a step
 * also takes its protocol's tenant). Its parameters are stored as a JSON object and shown as the
 * contract's texts by name.
 */
export const protocolActionEntity = defineEntity({
  table: 'protocol_action',
  key: 'protocolActionId',
  contract: protocolActionSchema,
  writable: protocolActionInputSchema,
  computed: {
    parameters: {
      sql: (col) => col('parameters'),
      value: (row) => textParameters(row.parameters),
      write: (value) => ({ parameters: JSON.stringify(value) }),
    },
  },
  relations: {
    actionDefinition: { kind: 'one', resource: () => actionDefinitionReference, column: 'action_definition_id' },
  },
  defaultOrderBy: 'workUnitEventTypeId asc, sequence asc',
});

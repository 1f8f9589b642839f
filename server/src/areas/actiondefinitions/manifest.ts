import { actionRunTask } from '../../engines/actions/runner.js';
import { defineArea } from '../../http/area.js';
import { actionDefinitionRoutes } from './routes.js';

export const actionDefinitionsArea = defineArea({
  name: 'actiondefinitions',
  routes: actionDefinitionRoutes,
  audited: { actionDefinition: 'ActionDefinitions' },
  // The one action runner's task: catalogue tests, protocol steps and any other queued action run.
  tasks: [actionRunTask],
});

import { defineArea } from '../../http/area.js';
import { actionDefinitionRoutes } from './routes.js';

export const actionDefinitionsArea = defineArea({
  name: 'actiondefinitions',
  routes: actionDefinitionRoutes,
  audited: { actionDefinition: 'ActionDefinitions' },
});

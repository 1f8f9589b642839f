import { defineArea } from '../../http/area.js';
import { actionDefinitionsAccess } from './access-policy.js';
import { actionDefinitionRoutes } from './routes.js';

export const actionDefinitionsArea = defineArea({
  name: 'actiondefinitions',
  routes: actionDefinitionRoutes,
  access: actionDefinitionsAccess,
  audited: { actionDefinition: 'ActionDefinitions' },
});

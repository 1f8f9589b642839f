import { defineArea } from '../../area.js';
import { actionDefinitionRoutes } from './routes.js';

export const actionDefinitionsArea = defineArea({
  name: 'actiondefinitions',
  routes: actionDefinitionRoutes,
  apiTags: {
    'Action definitions':
      'The action catalogue: HTTP-call actions with their parameters, test runs and where they are used.',
  },
  audited: { actionDefinition: 'ActionDefinitions' },
});

import { defineArea } from '../../area.js';
import { peopleRoutes } from './routes.js';

export const peopleArea = defineArea({
  name: 'people',
  routes: peopleRoutes,
  apiTags: { People: 'The people and groups a work unit may be assigned to or name as approvers.' },
});

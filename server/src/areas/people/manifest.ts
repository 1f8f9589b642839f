import { defineArea } from '../../http/area.js';
import { peopleAccess } from './access-policy.js';
import { peopleRoutes } from './routes.js';

export const peopleArea = defineArea({
  name: 'people',
  routes: peopleRoutes,
  access: peopleAccess,
});

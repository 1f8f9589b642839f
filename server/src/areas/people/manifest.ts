import { defineArea } from '../../http/area.js';
import { peopleRoutes } from './routes.js';

export const peopleArea = defineArea({
  name: 'people',
  routes: peopleRoutes,
});

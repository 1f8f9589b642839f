import { defineArea } from '../../http/area.js';
import { featuresAccess } from './access-policy.js';
import { featureRoutes } from './routes.js';

export const featuresArea = defineArea({
  name: 'features',
  routes: featureRoutes,
  access: featuresAccess,
});

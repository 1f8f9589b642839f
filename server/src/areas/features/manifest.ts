import { defineArea } from '../../area.js';
import { featureRoutes } from './routes.js';

export const featuresArea = defineArea({
  name: 'features',
  routes: featureRoutes,
  apiTags: { Features: 'Whether an optional feature is on for this installation.' },
});

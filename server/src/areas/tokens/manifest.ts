import { defineArea } from '../../http/area.js';
import { tokenRoutes } from './routes.js';

export const tokensArea = defineArea({
  name: 'tokens',
  routes: tokenRoutes,
  audited: { tokenGrant: 'Tokens' },
});

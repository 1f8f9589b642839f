import { defineArea } from '../../http/area.js';
import { tokensAccess } from './access-policy.js';
import { tokenRoutes } from './routes.js';

export const tokensArea = defineArea({
  name: 'tokens',
  routes: tokenRoutes,
  access: tokensAccess,
  audited: { tokenGrant: 'Tokens' },
});

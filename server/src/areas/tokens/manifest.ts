import { defineArea } from '../../area.js';
import { tokenRoutes } from './routes.js';

export const tokensArea = defineArea({
  name: 'tokens',
  routes: tokenRoutes,
  apiTags: { Tokens: "API tokens: what a tenant's scripts and device agents authenticate with." },
  audited: { tokenGrant: 'Tokens' },
});

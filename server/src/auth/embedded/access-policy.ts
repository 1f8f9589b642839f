import { defineAccessPolicy } from '../../http/access-policy.js';

/** The embedded identity provider's routes: signing in is what a caller without a token does. */
export const EMBEDDED_PROVIDER_ACCESS = defineAccessPolicy({
  'GET /oidc/interaction/:uid': 'public',
  'POST /oidc/interaction/:uid/login': 'public',
  // The provider's own endpoints (discovery, authorize, token, JWKS, end session), all methods.
  'GET /oidc/*': 'public',
  'HEAD /oidc/*': 'public',
  'POST /oidc/*': 'public',
  'PUT /oidc/*': 'public',
  'PATCH /oidc/*': 'public',
  'DELETE /oidc/*': 'public',
  'OPTIONS /oidc/*': 'public',
  'TRACE /oidc/*': 'public',
  'QUERY /oidc/*': 'public',
});

import type { RoutePermission } from '../src/http/route-permission.js';
import { AREA_PROBES } from './route-probes.js';

/*
 * Who may call each route, as the authorization matrix expects to see it answer: written by hand,
 * apart from the routes' own declarations (`config.permission`, the only one the portal reads).
 * Each area keeps its routes' expected access beside its probes (`access` in
 * `src/areas/<area>/route-probes.ts`); the routes that belong to no area are below. The matrix calls
 * every registered route as every kind of caller and holds the answers to this table, so a
 * declaration loosened or tightened by mistake, or a new route nobody entered, fails it: changing
 * who may call a route takes an edit here too, on purpose. It records behaviour, not the
 * declaration: a route that checks more in its handler (the audit trail's entity permission) is
 * entered with what the matrix's probe needs. The route test also holds the routes declared public
 * to it. Keyed by `METHOD /path` as registered; a HEAD route follows its GET.
 */
const OUTSIDE_THE_AREAS: Readonly<Record<string, RoutePermission>> = {
  // The app's own routes: the API documentation, the OpenAPI document, the web app's files.
  'GET /openapi.json': 'public',
  'GET /docs': 'public',
  'GET /docs/json': 'public',
  'GET /docs/yaml': 'public',
  'GET /docs/static/index.html': 'public',
  'GET /docs/static/swagger-initializer.js': 'public',
  'GET /docs/static/*': 'public',
  'GET /*': 'public',
  // The embedded identity provider: signing in is what a caller without a token does.
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
};

function expectedAccess(): Readonly<Record<string, RoutePermission>> {
  const access: Record<string, RoutePermission> = { ...OUTSIDE_THE_AREAS };
  for (const { area, probes } of AREA_PROBES) {
    for (const [route, permission] of Object.entries(probes.access ?? {})) {
      if (route in access) throw new Error(`${route}: its access is expected twice (areas/${area})`);
      access[route] = permission;
    }
  }
  return access;
}

export const EXPECTED_ACCESS = expectedAccess();

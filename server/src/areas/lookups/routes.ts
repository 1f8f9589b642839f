import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  environmentSchema,
  namedOptionSchema,
  oidcClientConfigSchema,
  sessionStartSchema,
  subscriptionLookupSchema,
  tenantLookupSchema,
  versionSchema,
  workUnitTypeLookupSchema,
} from '@cfs/contracts/shell';
import { MONITORING_LIMITS } from '@cfs/contracts/monitoring';
import {
  OCCURRENCE_OPTION_LIST,
  OPERATOR_OPTIONS,
  RULE_TYPE_OPTIONS,
  occurrenceOptionSchema,
  operatorOptionSchema,
} from '@cfs/contracts/rule-options';
import type { AppDeps } from '../../app-deps.js';
import { currentUserOf } from '../../auth/principal.js';
import { principalOf } from '../../http/route-permission.js';
import { findSubscriptionLookups, findTenantLookups, findWorkUnitTypeLookups } from './queries.js';

const tags = ['Lookups'];

/**
 * A lookup's route options: any signed-in caller may read it, and its document entry names its
 * operation, what it does and the answer's schema (which Fastify checks the answer against).
 */
function signedInLookup<Answer extends z.ZodType>(
  operationId: string,
  summary: string,
  answer: Answer,
  description?: string,
) {
  return {
    config: { permission: 'signed-in' as const },
    schema: { tags, operationId, summary, ...(description ? { description } : {}), response: { 200: answer } },
  };
}

/** General lookups of spec 000 §7. Paths are matched case-insensitively (generalLookup/generallookup). */
export const lookupRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, config }) =>
  async (app) => {
    app.get(
      '/api/generalLookup/oidcclientconfig',
      {
        config: { permission: 'public' },
        schema: {
          tags,
          operationId: 'lookupOidcClientConfig',
          summary: "Get the sign-in (OpenID Connect) client's settings",
          response: { 200: oidcClientConfigSchema },
        },
      },
      async () => ({
        authority: config.oidc.authority,
        clientId: config.oidc.clientId,
        lifetime: config.sessionLifetimeSeconds,
        scope: config.oidc.scope,
      }),
    );

    const environment = {
      environmentName: config.environment.name,
      environmentColor: config.environment.color,
      licenseExpiration: new Date(config.environment.licenseExpiration).toISOString(),
    };

    // The shell's start-up calls in one: the first screen waits on one round, not two.
    app.get(
      '/v1/session',
      signedInLookup(
        'getSessionStart',
        'Get what the portal shows a signed-in user first',
        sessionStartSchema,
        "The signed-in user's permissions, the user, the tenants and subscriptions they may work in, the environment and the version: what the permissions, currentUser and general lookup calls each answer, in one call.",
      ),
      async (request) => {
        const principal = principalOf(request);
        const [tenants, subscriptions] = await Promise.all([
          findTenantLookups(db, principal.tenantScope),
          findSubscriptionLookups(db, principal.tenantScope),
        ]);
        return {
          permissions: principal.permissionStrings,
          currentUser: currentUserOf(principal),
          tenants,
          subscriptions,
          environment,
          version: config.version,
        };
      },
    );

    app.get(
      '/api/generallookup/tenants',
      signedInLookup('lookupTenants', 'List the tenants the caller may work in', z.array(tenantLookupSchema)),
      async (request) => findTenantLookups(db, principalOf(request).tenantScope),
    );

    app.get(
      '/api/generallookup/subscriptions',
      signedInLookup(
        'lookupSubscriptions',
        'List the subscriptions the caller may work in',
        z.array(subscriptionLookupSchema),
      ),
      async (request) => findSubscriptionLookups(db, principalOf(request).tenantScope),
    );

    app.get(
      '/api/generallookup/workunittypes',
      signedInLookup('lookupWorkUnitTypes', 'List the work unit types', z.array(workUnitTypeLookupSchema)),
      async () => findWorkUnitTypeLookups(db),
    );

    // IANA zones from the runtime's own tables, the rule editor's default (spec 002 §5) first.
    const zones = [
      MONITORING_LIMITS.defaultTimeZone,
      ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== MONITORING_LIMITS.defaultTimeZone),
    ];
    app.get(
      '/api/generalLookup/timezones',
      signedInLookup('lookupTimeZones', 'List the IANA time zones, the default first', z.array(z.string())),
      async () => zones,
    );

    app.get(
      '/api/generalLookup/version',
      signedInLookup('lookupVersion', "Get the portal's version", versionSchema),
      async () => ({
        version: config.version,
      }),
    );

    app.get(
      '/api/generalLookup/environment',
      signedInLookup('lookupEnvironment', "Get the environment's name, color and license expiry", environmentSchema),
      async () => environment,
    );

    app.get(
      '/api/generalLookup/environmentcolor',
      signedInLookup(
        'lookupEnvironmentColor',
        "Get the environment's color",
        z.object({ environmentColor: z.string() }),
      ),
      async () => ({ environmentColor: config.environment.color }),
    );

    // The rule editor's fixed lookups (spec 000 §7), from the contracts the rule engine reads too.
    app.get(
      '/api/generalLookup/ruletypes',
      signedInLookup('lookupRuleTypes', 'List the rule types', z.array(namedOptionSchema)),
      async () => RULE_TYPE_OPTIONS,
    );
    app.get(
      '/api/generalLookup/operators',
      signedInLookup('lookupOperators', "List the operators of a rule's conditions", z.array(operatorOptionSchema)),
      async () => OPERATOR_OPTIONS,
    );
    app.get(
      '/api/generalLookup/occuranceoptions',
      signedInLookup(
        'lookupOccurrenceOptions',
        "List the occurrence options of a rule's conditions",
        z.array(occurrenceOptionSchema),
        'The path keeps the spec\'s spelling, "occurance".',
      ),
      async () => OCCURRENCE_OPTION_LIST,
    );
  };

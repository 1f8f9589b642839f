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
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'getSessionStart',
          summary: 'Get what the portal shows a signed-in user first',
          description:
            "The signed-in user's permissions, the user, the tenants and subscriptions they may work in, the environment and the version: what the permissions, currentUser and general lookup calls each answer, in one call.",
          response: { 200: sessionStartSchema },
        },
      },
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
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'lookupTenants',
          summary: 'List the tenants the caller may work in',
          response: { 200: z.array(tenantLookupSchema) },
        },
      },
      async (request) => findTenantLookups(db, principalOf(request).tenantScope),
    );

    app.get(
      '/api/generallookup/subscriptions',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'lookupSubscriptions',
          summary: 'List the subscriptions the caller may work in',
          response: { 200: z.array(subscriptionLookupSchema) },
        },
      },
      async (request) => findSubscriptionLookups(db, principalOf(request).tenantScope),
    );

    app.get(
      '/api/generallookup/workunittypes',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'lookupWorkUnitTypes',
          summary: 'List the work unit types',
          response: { 200: z.array(workUnitTypeLookupSchema) },
        },
      },
      async () => findWorkUnitTypeLookups(db),
    );

    // IANA zones from the runtime's own tables, the rule editor's default (spec 002 §5) first.
    const zones = [
      MONITORING_LIMITS.defaultTimeZone,
      ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== MONITORING_LIMITS.defaultTimeZone),
    ];
    app.get(
      '/api/generalLookup/timezones',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'lookupTimeZones',
          summary: 'List the IANA time zones, the default first',
          response: { 200: z.array(z.string()) },
        },
      },
      async () => zones,
    );

    app.get(
      '/api/generalLookup/version',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'lookupVersion',
          summary: "Get the portal's version",
          response: { 200: versionSchema },
        },
      },
      async () => ({
        version: config.version,
      }),
    );

    app.get(
      '/api/generalLookup/environment',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'lookupEnvironment',
          summary: "Get the environment's name, color and license expiry",
          response: { 200: environmentSchema },
        },
      },
      async () => environment,
    );

    app.get(
      '/api/generalLookup/environmentcolor',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'lookupEnvironmentColor',
          summary: "Get the environment's color",
          response: { 200: z.object({ environmentColor: z.string() }) },
        },
      },
      async () => ({ environmentColor: config.environment.color }),
    );

    // The rule editor's fixed lookups (spec 000 §7), from the contracts the rule engine reads too.
    app.get(
      '/api/generalLookup/ruletypes',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'lookupRuleTypes',
          summary: 'List the rule types',
          response: { 200: z.array(namedOptionSchema) },
        },
      },
      async () => RULE_TYPE_OPTIONS,
    );
    app.get(
      '/api/generalLookup/operators',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'lookupOperators',
          summary: "List the operators of a rule's conditions",
          response: { 200: z.array(operatorOptionSchema) },
        },
      },
      async () => OPERATOR_OPTIONS,
    );
    app.get(
      '/api/generalLookup/occuranceoptions',
      {
        config: { permission: 'signed-in' },
        schema: {
          tags,
          operationId: 'lookupOccurrenceOptions',
          summary: "List the occurrence options of a rule's conditions",
          description: 'The path keeps the spec\'s spelling, "occurance".',
          response: { 200: z.array(occurrenceOptionSchema) },
        },
      },
      async () => OCCURRENCE_OPTION_LIST,
    );
  };

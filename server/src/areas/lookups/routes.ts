import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  environmentSchema,
  namedOptionSchema,
  oidcClientConfigSchema,
  subscriptionLookupSchema,
  tenantLookupSchema,
  versionSchema,
  workUnitTypeLookupSchema,
} from '@cfs/contracts/shell';
import { MONITORING_LIMITS } from '@cfs/contracts/monitoring';
import { OCCURRENCE_OPTION_LIST, OPERATOR_OPTIONS, RULE_TYPE_OPTIONS, occurrenceOptionSchema, operatorOptionSchema } from '@cfs/contracts/rule-options';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import { findSubscriptionLookups, findTenantLookups, findWorkUnitTypeLookups } from './queries.js';

const tags = ['Lookups'];

/** General lookups of spec 000 §7. Paths are matched case-insensitively (generalLookup/generallookup). */
export const lookupRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db, config }) => async (app) => {
  app.get(
    '/api/generalLookup/oidcclientconfig',
    { config: { permission: 'public' }, schema: { tags, response: { 200: oidcClientConfigSchema } } },
    async () => ({
      authority: config.oidc.authority,
      clientId: config.oidc.clientId,
      lifetime: config.sessionLifetimeSeconds,
      scope: config.oidc.scope,
    }),
  );

  app.get('/api/generallookup/tenants', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(tenantLookupSchema) } } }, async (request) =>
    findTenantLookups(db, principalOf(request).tenantScope),
  );

  app.get(
    '/api/generallookup/subscriptions',
    { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(subscriptionLookupSchema) } } },
    async (request) => findSubscriptionLookups(db, principalOf(request).tenantScope),
  );

  app.get(
    '/api/generallookup/workunittypes',
    { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(workUnitTypeLookupSchema) } } },
    async () => findWorkUnitTypeLookups(db),
  );

  // IANA zones from the runtime's own tables, the rule editor's default (spec 002 §5) first.
  const zones = [MONITORING_LIMITS.defaultTimeZone, ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== MONITORING_LIMITS.defaultTimeZone)];
  app.get('/api/generalLookup/timezones', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(z.string()) } } }, async () => zones);

  app.get('/api/generalLookup/version', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: versionSchema } } }, async () => ({
    version: config.version,
  }));

  app.get('/api/generalLookup/environment', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: environmentSchema } } }, async () => ({
    environmentName: config.environment.name,
    environmentColor: config.environment.color,
    licenseExpiration: new Date(config.environment.licenseExpiration).toISOString(),
  }));

  app.get(
    '/api/generalLookup/environmentcolor',
    { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.object({ environmentColor: z.string() }) } } },
    async () => ({ environmentColor: config.environment.color }),
  );

  // The rule editor's fixed lookups (spec 000 §7), from the contracts the rule engine reads too.
  app.get('/api/generalLookup/ruletypes', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(namedOptionSchema) } } }, async () => RULE_TYPE_OPTIONS);
  app.get('/api/generalLookup/operators', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(operatorOptionSchema) } } }, async () => OPERATOR_OPTIONS);
  app.get('/api/generalLookup/occuranceoptions', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(occurrenceOptionSchema) } } }, async () => OCCURRENCE_OPTION_LIST);
};

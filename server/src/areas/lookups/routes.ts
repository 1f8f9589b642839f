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
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../http/route-permission.js';
import { findSubscriptionLookups, findTenantLookups, findWorkUnitTypeLookups } from './queries.js';
import { OCCURRENCE_OPTIONS, OPERATORS, RULE_TYPES } from './enums.js';

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

  app.get('/api/generalLookup/timezones', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(z.string()) } } }, async () =>
    Intl.supportedValuesOf('timeZone'),
  );

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

  app.get('/api/generalLookup/ruletypes', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(namedOptionSchema) } } }, async () => RULE_TYPES);
  app.get('/api/generalLookup/operators', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(namedOptionSchema) } } }, async () => OPERATORS);
  app.get('/api/generalLookup/occuranceoptions', { config: { permission: 'authenticated' }, schema: { tags, response: { 200: z.array(namedOptionSchema) } } }, async () => OCCURRENCE_OPTIONS);
};

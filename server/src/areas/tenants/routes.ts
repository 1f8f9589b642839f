import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tenantInputSchema, tenantSchema, tenantSecretInputSchema, tenantSecretSchema, tenantSecretValueSchema, tenantSecretVersionInputSchema } from '@cfs/contracts/tenants';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { createTenant, toggleTenant, updateTenant } from './commands.js';
import { findAssignmentGroups, findTenantRow, presentTenant } from './queries.js';
import { tenantsResource } from './resource.js';
import { deleteSecret, listSecrets, putSecret, readLatestSecret, setSecretValue } from './secrets.js';

const tags = ['Tenants'];
const tenantParams = z.object({ id: z.uuid() });
const secretParams = z.object({ id: z.uuid(), secretId: z.uuid() });

/** Tenants (spec 001 §7 Tenants): the grid, the drawer's tabs, secrets. */
export const tenantRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db, secretBox }) => async (app) => {
  registerListRoutes(app, db, {
    path: '/v1/tenants',
    resource: tenantsResource,
    row: tenantSchema,
    permission: perm('Tenants', 'view'),
    base: (user) => scoped(db, user.tenantScope).selectFrom('tenant').selectAll(),
    exportFileName: 'tenants.csv',
    tags,
  });

  // GET v1/tenants({id}) arrives here after the OData path rewrite.
  // The work unit form reads a tenant's custom fields and assignment groups too (spec 001 §7).
  app.get('/v1/tenants/:id', { config: { permission: [perm('Tenants', 'view'), perm('WorkUnits', 'view')] }, schema: { tags, params: tenantParams, response: { 200: tenantSchema } } }, async (request) =>
    presentTenant(await findTenantRow(db, principalOf(request).tenantScope, request.params.id)),
  );

  app.put('/v1/tenants', { config: { permission: perm('Tenants', 'create') }, schema: { tags, body: tenantInputSchema, response: { 200: tenantSchema } } }, async (request) =>
    createTenant(db, principalOf(request), request.body),
  );

  app.post(
    '/v1/tenants/:id',
    { config: { permission: perm('Tenants', 'edit') }, schema: { tags, params: tenantParams, body: tenantInputSchema, response: { 200: tenantSchema } } },
    async (request) => updateTenant(db, principalOf(request), request.params.id, request.body),
  );

  app.post(
    '/v1/tenants/toggledisabled/:id',
    { config: { permission: perm('Tenants', 'edit') }, schema: { tags, params: tenantParams, response: { 200: tenantSchema } } },
    async (request) => toggleTenant(db, principalOf(request), request.params.id),
  );

  app.get(
    '/v1/tenants/:id/assignmentGroups',
    { config: { permission: [perm('Tenants', 'view'), perm('WorkUnits', 'view')] }, schema: { tags, params: tenantParams, response: { 200: z.array(z.string()) } } },
    async (request) => findAssignmentGroups(db, principalOf(request).tenantScope, request.params.id),
  );

  // Spec 001 §7 gives this call a CSV content type; the body is the schema's JSON text.
  app.get('/v1/tenants/:id/intakewizardschema', { config: { permission: perm('WorkUnits', 'create') }, schema: { tags, params: tenantParams } }, async (request, reply) => {
    const row = await findTenantRow(db, principalOf(request).tenantScope, request.params.id);
    return reply.type('text/csv; charset=utf-8').send(row.intake_wizard_schema ?? '');
  });

  app.get(
    '/v1/tenants/:id/secrets',
    { config: { permission: perm('Tenants', 'view') }, schema: { tags, params: tenantParams, response: { 200: z.object({ value: z.array(tenantSecretSchema) }) } } },
    async (request) => ({ value: await listSecrets(db, principalOf(request), request.params.id) }),
  );

  app.put(
    '/v1/tenants/:id/secrets',
    { config: { permission: perm('Tenants', 'edit') }, schema: { tags, params: tenantParams, body: tenantSecretInputSchema, response: { 200: tenantSecretSchema } } },
    async (request) => putSecret(db, secretBox, principalOf(request), request.params.id, request.body.name, request.body.value),
  );

  app.post(
    '/v1/tenants/:id/secrets/:secretId',
    { config: { permission: perm('Tenants', 'edit') }, schema: { tags, params: secretParams, body: tenantSecretVersionInputSchema, response: { 200: tenantSecretSchema } } },
    async (request) => setSecretValue(db, secretBox, principalOf(request), request.params.id, request.params.secretId, request.body.value),
  );

  // Reading a value needs edit, not view: seeing a tenant's settings is not seeing its passwords.
  app.get(
    '/v1/tenants/:id/secrets/:secretId/versions/latest',
    { config: { permission: perm('Tenants', 'edit') }, schema: { tags, params: secretParams, response: { 200: tenantSecretValueSchema } } },
    async (request, reply) => reply.header('Cache-Control', 'no-store').send(await readLatestSecret(db, secretBox, principalOf(request), request.params.id, request.params.secretId)),
  );

  app.delete('/v1/tenants/:id/secrets/:secretId', { config: { permission: perm('Tenants', 'edit') }, schema: { tags, params: secretParams } }, async (request, reply) => {
    await deleteSecret(db, principalOf(request), request.params.id, request.params.secretId);
    return reply.code(204).send();
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  intakeWizardSchemaAnswerSchema,
  tenantInputSchema,
  tenantSchema,
  tenantSecretInputSchema,
  tenantSecretSchema,
  tenantSecretValueSchema,
  tenantSecretVersionInputSchema,
} from '@cfs/contracts/tenants';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import { createTenant, toggleTenant, updateTenant } from './commands.js';
import { findAssignmentGroups, findTenantRow } from './queries.js';
import { tenantEntity } from './resource.js';
import { deleteSecret, listSecrets, putSecret, readLatestSecret, setSecretValue } from './secrets.js';

const tags = ['Tenants'];
const tenantParams = z.object({ id: z.uuid() });
const secretParams = z.object({ id: z.uuid(), secretId: z.uuid() });

/** Tenants (spec 001 §7 Tenants): the grid, the drawer's tabs, secrets. */
export const tenantRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, secretBox }) =>
  async (app) => {
    registerListRoutes(app, db, {
      path: '/v1/tenants',
      title: 'tenants',
      resource: tenantEntity.resource,
      row: tenantEntity.contract,
      permission: 'Tenants:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('tenant').selectAll(),
      exportFileName: 'tenants.csv',
      tags,
    });

    // GET v1/tenants({id}) arrives here after the OData path rewrite.
    registerItemRoutes(app, {
      path: '/v1/tenants',
      name: { operation: 'Tenant', words: 'a tenant' },
      area: 'Tenants',
      tags,
      params: tenantParams,
      item: tenantSchema,
      input: tenantInputSchema,
      get: async (user, { id }) => tenantEntity.present(await findTenantRow(db, user.tenantScope, id)),
      create: (user, input) => createTenant(db, user, input),
      update: (user, { id }, input) => updateTenant(db, user, id, input),
      own: {
        // The work unit form reads a tenant's custom fields and assignment groups too (spec 001 §7).
        get: { permission: ['Tenants:view', 'WorkUnits:view'] },
        update: { description: 'The fields left out of the body keep their stored values.' },
      },
    });

    // The spec's spelling (001 §7) is answered too, but left out of the document: beside
    // /v1/tenants/{id}/secrets and the like it is an ambiguous path.
    const toggle = {
      config: { permission: 'Tenants:edit' },
      schema: {
        tags,
        operationId: 'toggleTenantDisabled',
        summary: 'Enable or disable a tenant',
        description:
          "Switches the tenant between enabled and disabled and answers it. The spec's spelling, " +
          'POST /v1/tenants/toggledisabled/{id}, is answered too.',
        params: tenantParams,
        response: { 200: tenantSchema },
      },
    } as const;
    app.post('/v1/tenants/:id/toggledisabled', toggle, async (request) =>
      toggleTenant(db, principalOf(request), request.params.id),
    );
    app.post(
      '/v1/tenants/toggledisabled/:id',
      { ...toggle, schema: { ...toggle.schema, hide: true } },
      async (request) => toggleTenant(db, principalOf(request), request.params.id),
    );

    app.get(
      '/v1/tenants/:id/assignmentGroups',
      {
        config: { permission: ['Tenants:view', 'WorkUnits:view'] },
        schema: {
          tags,
          operationId: 'listTenantAssignmentGroups',
          summary: "List a tenant's assignment groups",
          params: tenantParams,
          response: { 200: z.array(z.string()) },
        },
      },
      async (request) => findAssignmentGroups(db, principalOf(request).tenantScope, request.params.id),
    );

    // Spec 001 §7 gives this call a CSV content type; it answers the stored JSON Schema as JSON
    // (checked to be a JSON Schema object when it was saved).
    app.get(
      '/v1/tenants/:id/intakewizardschema',
      {
        config: { permission: 'WorkUnits:create' },
        schema: {
          tags,
          operationId: 'getTenantIntakeWizardSchema',
          summary: "Get a tenant's intake wizard form",
          description: "The JSON Schema of the tenant's intake wizard form, or null when the tenant has none.",
          params: tenantParams,
          response: { 200: intakeWizardSchemaAnswerSchema },
        },
      },
      async (request) => {
        const row = await findTenantRow(db, principalOf(request).tenantScope, request.params.id);
        const text = row.intake_wizard_schema?.trim();
        return text ? (JSON.parse(text) as Record<string, unknown>) : null;
      },
    );

    app.get(
      '/v1/tenants/:id/secrets',
      {
        config: { permission: 'Tenants:view' },
        schema: {
          tags,
          operationId: 'listTenantSecrets',
          summary: "List a tenant's secrets",
          description: 'Their names and versions; a value is never in this list.',
          params: tenantParams,
          response: { 200: z.object({ value: z.array(tenantSecretSchema) }) },
        },
      },
      async (request) => ({ value: await listSecrets(db, principalOf(request), request.params.id) }),
    );

    app.put(
      '/v1/tenants/:id/secrets',
      {
        config: { permission: 'Tenants:edit' },
        schema: {
          tags,
          operationId: 'saveTenantSecret',
          summary: 'Add a secret, or a new version of one, by name',
          description:
            'A secret of the same name gets a new version, which becomes its value; otherwise one is created.',
          params: tenantParams,
          body: tenantSecretInputSchema,
          response: { 200: tenantSecretSchema },
        },
      },
      async (request) =>
        putSecret(db, secretBox, principalOf(request), request.params.id, request.body.name, request.body.value),
    );

    app.post(
      '/v1/tenants/:id/secrets/:secretId',
      {
        config: { permission: 'Tenants:edit' },
        schema: {
          tags,
          operationId: 'addTenantSecretVersion',
          summary: "Set a secret's value as a new version",
          description: 'The new version is the one actions use from now on.',
          params: secretParams,
          body: tenantSecretVersionInputSchema,
          response: { 200: tenantSecretSchema },
        },
      },
      async (request) =>
        setSecretValue(
          db,
          secretBox,
          principalOf(request),
          request.params.id,
          request.params.secretId,
          request.body.value,
        ),
    );

    // Reading a value needs edit, not view: seeing a tenant's settings is not seeing its passwords.
    app.get(
      '/v1/tenants/:id/secrets/:secretId/versions/latest',
      {
        config: { permission: 'Tenants:edit' },
        schema: {
          tags,
          operationId: 'getLatestTenantSecretVersion',
          summary: "Read a secret's latest value",
          description:
            'Each read is recorded in the audit trail; the answer is never cached (Cache-Control: no-store).',
          params: secretParams,
          response: { 200: tenantSecretValueSchema },
        },
      },
      async (request, reply) =>
        reply
          .header('Cache-Control', 'no-store')
          .send(
            await readLatestSecret(db, secretBox, principalOf(request), request.params.id, request.params.secretId),
          ),
    );

    app.delete(
      '/v1/tenants/:id/secrets/:secretId',
      {
        config: { permission: 'Tenants:edit' },
        schema: { tags, operationId: 'deleteTenantSecret', summary: "Delete a tenant's secret", params: secretParams },
      },
      async (request, reply) => {
        await deleteSecret(db, principalOf(request), request.params.id, request.params.secretId);
        return reply.code(204).send();
      },
    );
  };

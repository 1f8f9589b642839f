import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { operationInputSchema, operationSchema, PACKAGE_MESSAGES, packageDetailSchema, packageInputSchema, packageSchema, packageVersionSchema } from '@cfs/contracts/packages';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError } from '../../http/errors.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { perm, principalOf } from '../../http/route-permission.js';
import { createOperation, createPackage, deleteOperation, deletePackage, findPackage, updateOperation, updatePackage } from './commands.js';
import { packagesResource } from './resource.js';
import { deleteVersion, receiveUpload, removeFiles, saveUploadedVersion, type UploadPart } from './versions.js';

const tags = ['Packages'];
const params = z.object({ id: z.uuid() });
const operationParams = z.object({ id: z.uuid(), operationId: z.uuid() });
const versionParams = z.object({ id: z.uuid(), versionId: z.uuid() });

/**
 * The multipart parts as the upload reads them, named by their form field. A body the multipart
 * reader cannot parse (no boundary, a malformed part header) is the caller's mistake: its parser
 * throws plain errors, which would otherwise answer 500.
 */
async function* uploadParts(request: FastifyRequest): AsyncIterable<UploadPart> {
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') yield { type: 'field', name: part.fieldname, value: typeof part.value === 'string' ? part.value : String(part.value) };
      else yield { type: 'file', name: part.fieldname, fileName: part.filename, stream: part.file, truncated: () => part.file.truncated };
    }
  } catch (error) {
    if (error instanceof Error && !('statusCode' in error)) throw new BadRequestError(PACKAGE_MESSAGES.uploadFailed, { file: [PACKAGE_MESSAGES.uploadUnreadable] });
    throw error;
  }
}

/** The package catalogue (spec 002 §2 Packages, §7 Packages): packages, their operations and versions. */
export const packageRoutes: (deps: AppDeps) => FastifyPluginAsyncZod = ({ db, config }) => async (app) => {
  // Multipart only in this area's scope: the upload is the one form that carries a file. One byte
  // over the cap lets the store's own meter see the excess and answer with the portal's message.
  await app.register(multipart, { limits: { fileSize: config.packageUploadMaxBytes + 1, files: 1, fields: 10, fieldSize: 10_000, parts: 12 } });

  registerListRoutes(app, db, {
    path: '/v1/packages',
    resource: packagesResource,
    row: packageSchema,
    permission: perm('Packages', 'view'),
    base: (user) => scoped(db, user.tenantScope).selectFrom('package').selectAll(),
    exportFileName: 'packages.csv',
    tags,
  });

  app.get('/v1/packages/:id', { config: { permission: perm('Packages', 'view') }, schema: { tags, params, response: { 200: packageDetailSchema } } }, async (request) =>
    findPackage(db, principalOf(request).tenantScope, request.params.id),
  );
  app.put('/v1/packages', { config: { permission: perm('Packages', 'create') }, schema: { tags, body: packageInputSchema, response: { 200: packageSchema } } }, async (request) =>
    createPackage(db, principalOf(request), request.body),
  );
  app.post('/v1/packages/:id', { config: { permission: perm('Packages', 'edit') }, schema: { tags, params, body: packageInputSchema, response: { 200: packageSchema } } }, async (request) =>
    updatePackage(db, principalOf(request), request.params.id, request.body),
  );
  app.delete('/v1/packages/:id', { config: { permission: perm('Packages', 'delete') }, schema: { tags, params } }, async (request, reply) => {
    await removeFiles(db, config, await deletePackage(db, principalOf(request), request.params.id));
    return reply.code(204).send();
  });

  app.put(
    '/v1/packages/:id/operations',
    { config: { permission: perm('Packages', 'edit') }, schema: { tags, params, body: operationInputSchema, response: { 200: operationSchema } } },
    async (request) => createOperation(db, principalOf(request), request.params.id, request.body),
  );
  app.post(
    '/v1/packages/:id/operations/:operationId',
    { config: { permission: perm('Packages', 'edit') }, schema: { tags, params: operationParams, body: operationInputSchema, response: { 200: operationSchema } } },
    async (request) => updateOperation(db, principalOf(request), request.params.id, request.params.operationId, request.body),
  );
  app.delete('/v1/packages/:id/operations/:operationId', { config: { permission: perm('Packages', 'edit') }, schema: { tags, params: operationParams } }, async (request, reply) => {
    await deleteOperation(db, principalOf(request), request.params.id, request.params.operationId);
    return reply.code(204).send();
  });

  app.post(
    '/v1/packages/upload',
    { config: { permission: perm('Packages', 'create') }, schema: { tags, summary: 'Upload a package version (multipart: file-0, packageId, version, label, tenantId)', response: { 200: packageVersionSchema } } },
    async (request) => saveUploadedVersion(db, principalOf(request), await receiveUpload(config, uploadParts(request))),
  );
  app.delete('/v1/packages/:id/versions/:versionId', { config: { permission: perm('Packages', 'delete') }, schema: { tags, params: versionParams } }, async (request, reply) => {
    await deleteVersion(db, config, principalOf(request), request.params.id, request.params.versionId);
    return reply.code(204).send();
  });
};

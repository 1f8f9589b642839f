import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  operationInputSchema,
  operationSchema,
  PACKAGE_MESSAGES,
  packageDetailSchema,
  packageInputSchema,
  packageSchema,
  packageVersionSchema,
} from '@cfs/contracts/packages';
import type { AppDeps } from '../../app-deps.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError } from '../../http/errors.js';
import { registerItemRoutes } from '../../http/item-routes.js';
import { registerListRoutes } from '../../http/list-routes.js';
import { principalOf } from '../../http/route-permission.js';
import {
  createOperation,
  createPackage,
  deleteOperation,
  deletePackage,
  findPackage,
  updateOperation,
  updatePackage,
} from './commands.js';
import { packageEntity } from './resource.js';
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
      if (part.type === 'field')
        yield {
          type: 'field',
          name: part.fieldname,
          value: typeof part.value === 'string' ? part.value : String(part.value),
        };
      else {
        // The reader fails the file's stream when the body breaks off or is malformed inside it: it
        // destroys the stream with its error (already, when the whole body had arrived) or emits it.
        const emitted = new Set<unknown>();
        part.file.on('error', (error) => emitted.add(error));
        const fromBody = (error: unknown) => error === part.file.errored || emitted.has(error);
        yield {
          type: 'file',
          name: part.fieldname,
          fileName: part.filename,
          stream: part.file,
          truncated: () => part.file.truncated,
          fromBody,
        };
      }
    }
  } catch (error) {
    if (error instanceof Error && !('statusCode' in error))
      throw new BadRequestError(PACKAGE_MESSAGES.uploadFailed, { file: [PACKAGE_MESSAGES.uploadUnreadable] });
    throw error;
  }
}

/** The package catalogue (spec 002 §2 Packages, §7 Packages): packages, their operations and versions. */
export const packageRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, config }) =>
  async (app) => {
    // Multipart only in this area's scope: the upload is the one form that carries a file. One byte
    // over the cap lets the store's own meter see the excess and answer with the portal's message.
    await app.register(multipart, {
      limits: { fileSize: config.packageUploadMaxBytes + 1, files: 1, fields: 10, fieldSize: 10_000, parts: 12 },
    });

    registerListRoutes(app, db, {
      path: '/v1/packages',
      title: 'packages',
      resource: packageEntity.resource,
      row: packageEntity.contract,
      permission: 'Packages:view',
      base: (user) => scoped(db, user.tenantScope).selectFrom('package').selectAll(),
      exportFileName: 'packages.csv',
      tags,
    });

    registerItemRoutes(app, {
      path: '/v1/packages',
      name: { operation: 'Package', words: 'a package' },
      area: 'Packages',
      tags,
      params,
      item: packageSchema,
      detail: packageDetailSchema,
      input: packageInputSchema,
      get: (user, { id }) => findPackage(db, user.tenantScope, id),
      create: (user, input) => createPackage(db, user, input),
      update: (user, { id }, input) => updatePackage(db, user, id, input),
      delete: { run: async (user, { id }) => removeFiles(db, config, await deletePackage(db, user, id)) },
      own: {
        get: { summary: 'Get a package with its operations and versions' },
        delete: {
          description:
            'Refused while a device holds the package or runs one of its operations; its operations and versions go with it.',
        },
      },
    });

    app.put(
      '/v1/packages/:id/operations',
      {
        config: { permission: 'Packages:edit' },
        schema: {
          tags,
          operationId: 'createPackageOperation',
          summary: 'Add an operation to a package',
          params,
          body: operationInputSchema,
          response: { 200: operationSchema },
        },
      },
      async (request) => createOperation(db, principalOf(request), request.params.id, request.body),
    );
    app.post(
      '/v1/packages/:id/operations/:operationId',
      {
        config: { permission: 'Packages:edit' },
        schema: {
          tags,
          operationId: 'updatePackageOperation',
          summary: 'Update an operation of a package',
          params: operationParams,
          body: operationInputSchema,
          response: { 200: operationSchema },
        },
      },
      async (request) =>
        updateOperation(db, principalOf(request), request.params.id, request.params.operationId, request.body),
    );
    app.delete(
      '/v1/packages/:id/operations/:operationId',
      {
        config: { permission: 'Packages:edit' },
        schema: {
          tags,
          operationId: 'deletePackageOperation',
          summary: 'Delete an operation of a package',
          params: operationParams,
        },
      },
      async (request, reply) => {
        await deleteOperation(db, principalOf(request), request.params.id, request.params.operationId);
        return reply.code(204).send();
      },
    );

    app.post(
      '/v1/packages/upload',
      {
        config: { permission: 'Packages:create' },
        schema: {
          tags,
          operationId: 'uploadPackageVersion',
          summary: 'Upload a package version',
          description: 'A multipart form with the fields file-0 (the file), packageId, version, label and tenantId.',
          response: { 200: packageVersionSchema },
        },
      },
      async (request) =>
        saveUploadedVersion(db, principalOf(request), await receiveUpload(config, uploadParts(request))),
    );
    app.delete(
      '/v1/packages/:id/versions/:versionId',
      {
        config: { permission: 'Packages:delete' },
        schema: {
          tags,
          operationId: 'deletePackageVersion',
          summary: 'Delete a package version',
          description: 'Refused for the Latest version and for a version a device holds.',
          params: versionParams,
        },
      },
      async (request, reply) => {
        await deleteVersion(db, config, principalOf(request), request.params.id, request.params.versionId);
        return reply.code(204).send();
      },
    );
  };

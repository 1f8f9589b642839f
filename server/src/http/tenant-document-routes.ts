import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { principalOf, type RoutePermission } from './route-permission.js';

/** What one of the two routes declares of its own beyond its operation id and summary. */
interface DocumentRoute {
  readonly permission: RoutePermission;
  readonly summary: string;
  readonly description?: string;
}

export interface TenantDocumentRouteOptions<P extends z.ZodObject, D extends z.ZodType, B extends z.ZodType> {
  /** GET and PUT `{path}/:tenantId`. */
  readonly path: string;
  /** The document's name in operation ids: `'NotificationPolicy'` → getNotificationPolicy, saveNotificationPolicy. */
  readonly operation: string;
  readonly tags: readonly string[];
  /** The path's parameters: the tenant's id. */
  readonly params: P;
  /** The document as both routes answer it. */
  readonly document: D;
  /** What PUT takes: the document written whole. */
  readonly input: B;
  readonly get: DocumentRoute & { readonly run: (user: Principal, tenantId: string) => Promise<z.input<D>> };
  readonly save: DocumentRoute & {
    readonly run: (user: Principal, tenantId: string, input: z.output<B>) => Promise<z.input<D>>;
  };
}

/**
 * A tenant's settings document, read and written whole, declared once: GET `{path}/:tenantId`
 * answers it (the defaults while the tenant never saved one) and PUT writes it, each with its
 * permission, operation id, summary and the contract's schemas. The scope check on the tenant is
 * the commands' own.
 *
 * @example
 *   registerTenantDocumentRoutes(app, {
 *     path: '/v1/notificationpolicy',
 *     operation: 'NotificationPolicy',
 *     tags,
 *     params: z.object({ tenantId: guid() }),
 *     document: notificationPolicySchema,
 *     input: notificationPolicyInputSchema,
 *     get: { permission: 'Rules:view', summary: "Get a tenant's notification policy", run: (user, tenantId) => findPolicy(db, user, tenantId) },
 *     save: { permission: 'Rules:edit', summary: "Set a tenant's notification policy", run: (user, tenantId, input) => savePolicy(db, user, tenantId, input) },
 *   });
 */
export function registerTenantDocumentRoutes<P extends z.ZodObject, D extends z.ZodType, B extends z.ZodType>(
  app: FastifyInstance,
  options: TenantDocumentRouteOptions<P, D, B>,
): void {
  const { path, operation, tags, params, document, input, get, save } = options;
  const route = (verb: 'get' | 'save', declared: DocumentRoute, parts: FastifySchema) => ({
    config: { permission: declared.permission },
    schema: {
      tags: [...tags],
      operationId: `${verb}${operation}`,
      summary: declared.summary,
      ...(declared.description ? { description: declared.description } : {}),
      params,
      ...parts,
      response: { 200: document },
    } satisfies FastifySchema as FastifySchema,
  });
  // The validator has checked the parameters and the body against these schemas before a handler runs.
  const tenantOf = (request: FastifyRequest) => (request.params as { tenantId: string }).tenantId;
  app.get(`${path}/:tenantId`, route('get', get, {}), async (request, reply) =>
    reply.send(await get.run(principalOf(request), tenantOf(request))),
  );
  app.put(`${path}/:tenantId`, route('save', save, { body: input }), async (request, reply) =>
    reply.send(await save.run(principalOf(request), tenantOf(request), request.body as z.output<B>)),
  );
}

import type { Area } from '@cfs/contracts/permissions';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { ZodType, type z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { ListItemJson, sendListItem } from '../odata/list-item.js';
import { principalOf, type RoutePermission } from './route-permission.js';

type Verb = 'get' | 'create' | 'update' | 'delete';

/** What PUT and POST take: one schema for both, or each its own. */
type Input = z.ZodType | { readonly create: z.ZodType; readonly update: z.ZodType };
type InputOf<B extends Input, V extends 'create' | 'update'> = B extends z.ZodType
  ? z.output<B>
  : B extends { readonly [K in V]: infer S extends z.ZodType }
    ? z.output<S>
    : never;

/** What one of the routes declares of its own: a summary beyond its name's, a description, a wider permission. */
interface OwnDeclaration {
  readonly summary?: string;
  readonly description?: string;
  /** Instead of the area's permission for the verb, e.g. a GET that another area's screen reads too. */
  readonly permission?: RoutePermission;
}

export interface ItemRouteOptions<
  P extends z.ZodObject,
  I extends z.ZodType,
  B extends Input,
  D extends z.ZodType,
  G extends z.ZodType = I,
> {
  /** The collection's path: PUT creates there; GET, POST and DELETE `{path}/:{key}` read, update and delete one. */
  readonly path: string;
  /**
   * The item's name: in operation ids (`'Location'` → getLocation, createLocation, updateLocation,
   * deleteLocation) and, in words with its article, in their summaries (`'a location'` → "Get a location").
   */
  readonly name: { readonly operation: string; readonly words: string };
  /** The area whose view, create, edit and delete permissions the four routes ask for. */
  readonly area: Area;
  readonly tags: readonly string[];
  /** The item's path parameters, one of them named by `key` (default `id`). */
  readonly params: P;
  readonly key?: keyof z.output<P> & string;
  /** The item as GET, PUT and POST answer it. */
  readonly item: I;
  /** What GET answers instead of `item`, when it tells more (the item with its parts); `get` answers it. */
  readonly detail?: G;
  /** What PUT and POST take: one schema, or `{ create, update }` when they take different fields. */
  readonly input?: B;
  /**
   * GET {path}/:key: the item (or its `detail`) the caller may see, or a 404. Each of the three may
   * answer the list layer's JSON of the item (`ListItemJson`, `findListItem`), sent as it is.
   */
  readonly get?: (user: Principal, params: z.output<P>) => Promise<z.input<G> | ListItemJson>;
  /** PUT {path}: the item made. */
  readonly create?: (user: Principal, input: InputOf<B, 'create'>) => Promise<z.input<I> | ListItemJson>;
  /** POST {path}/:key: the item as saved. */
  readonly update?: (
    user: Principal,
    params: z.output<P>,
    input: InputOf<B, 'update'>,
  ) => Promise<z.input<I> | ListItemJson>;
  /** DELETE {path}/:key, answered with `response`, or 204 No Content without one. */
  readonly delete?:
    | { readonly response: D; readonly run: (user: Principal, params: z.output<P>) => Promise<z.input<D>> }
    | { readonly response?: never; readonly run: (user: Principal, params: z.output<P>) => Promise<void> };
  /** What a route declares of its own: its summary, a description, a wider permission. */
  readonly own?: Partial<Record<Verb, OwnDeclaration>>;
}

const PERMISSION_VERB = { get: 'view', create: 'create', update: 'edit', delete: 'delete' } as const;
const SUMMARY_VERB = { get: 'Get', create: 'Create', update: 'Update', delete: 'Delete' } as const;

/**
 * The routes of one item of a collection, declared once: get, create, update and delete, each with
 * its permission (the area's view, create, edit and delete, unless it declares its own), its
 * operation id and summary made from the item's name, and its parameters, body and answer from the
 * contract. The list of the collection is `registerListRoutes`; any other route of the area is
 * declared on its own.
 *
 * @example
 *   registerItemRoutes(app, {
 *     path: '/v1/locations',
 *     name: { operation: 'Location', words: 'a location' },
 *     area: 'Locations',
 *     tags,
 *     params: z.object({ id: z.uuid() }),
 *     item: locationSchema,
 *     input: locationInputSchema,
 *     get: (user, { id }) => findLocation(db, user.tenantScope, id),
 *     create: (user, input) => createLocation(db, user, input),
 *     update: (user, { id }, input) => updateLocation(db, user, id, input),
 *   });
 */
export function registerItemRoutes<
  P extends z.ZodObject,
  I extends z.ZodType,
  B extends Input = z.ZodNever,
  D extends z.ZodType = z.ZodNever,
  G extends z.ZodType = I,
>(app: FastifyInstance, options: ItemRouteOptions<P, I, B, D, G>): void {
  const { path, name, area, tags, params, key = 'id', item, input, own = {} } = options;
  const itemPath = `${path}/:${key}`;
  // Typed as Fastify's plain schema: the zod schemas in it validate the request and serialise the
  // answer at run time; the handlers' types come from the options above.
  const route = (verb: Verb, parts: FastifySchema) => ({
    config: { permission: own[verb]?.permission ?? (`${area}:${PERMISSION_VERB[verb]}` as const) },
    schema: {
      tags: [...tags],
      operationId: `${verb}${name.operation}`,
      summary: own[verb]?.summary ?? `${SUMMARY_VERB[verb]} ${name.words}`,
      ...(own[verb]?.description ? { description: own[verb].description } : {}),
      ...parts,
    } satisfies FastifySchema as FastifySchema,
  });
  // The validator has checked the parameters and the body against these schemas before a handler runs.
  const paramsOf = (request: FastifyRequest) => request.params as z.output<P>;
  const bodyOf = <V extends 'create' | 'update'>(request: FastifyRequest) => request.body as InputOf<B, V>;
  const bodySchema = (verb: 'create' | 'update'): z.ZodType | undefined =>
    input === undefined || input instanceof ZodType ? input : input[verb];
  const { get, create, update } = options;
  const remove = options.delete;
  const answer = { 200: item };

  // The list layer's JSON goes out as the database wrote it; any other answer through the route's schema.
  const send = (reply: FastifyReply, answer: unknown) =>
    answer instanceof ListItemJson ? sendListItem(reply, answer) : reply.send(answer);
  if (get) {
    app.get(itemPath, route('get', { params, response: { 200: options.detail ?? item } }), async (request, reply) =>
      send(reply, await get(principalOf(request), paramsOf(request))),
    );
  }
  if (create) {
    app.put(path, route('create', { body: bodySchema('create'), response: answer }), async (request, reply) =>
      send(reply, await create(principalOf(request), bodyOf<'create'>(request))),
    );
  }
  if (update) {
    app.post(
      itemPath,
      route('update', { params, body: bodySchema('update'), response: answer }),
      async (request, reply) =>
        send(reply, await update(principalOf(request), paramsOf(request), bodyOf<'update'>(request))),
    );
  }
  if (remove) {
    const { response } = remove;
    app.delete(
      itemPath,
      route('delete', response ? { params, response: { 200: response } } : { params }),
      async (request, reply) => {
        const answer = await remove.run(principalOf(request), paramsOf(request));
        return response ? reply.send(answer) : reply.code(204).send();
      },
    );
  }
}

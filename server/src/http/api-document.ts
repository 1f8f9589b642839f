import { createHash } from 'node:crypto';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { API_VERSION } from '@cfs/contracts/api-version';
import type { AreaManifest } from '../area.js';
import type { Config } from '../config.js';
import { exampleOf, type JsonSchema } from './json-schema-example.js';
import type { RoutePermission } from './route-permission.js';

/** The error body of every 4xx (http/error-handler.ts): a message, and per field what is wrong with it. */
const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string', description: 'What went wrong, in words a user can be shown.' },
    errors: {
      type: 'object',
      description: 'Per field (a dotted path into the request), the problems found with it.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

/** The error answers an operation may give, described once and referred to by each operation. */
const ERROR_ANSWERS = {
  '400': {
    name: 'BadRequest',
    description: 'The request is not valid: a field is missing, malformed or unknown, or a value is not allowed.',
    example: { message: 'One or more validation errors occurred.', errors: { name: ['Name is required'] } },
  },
  '401': {
    name: 'Unauthorized',
    description: 'No credential, or one that is not valid (expired, revoked, or naming no live sign-in).',
    example: { message: 'Sign in to continue.' },
  },
  '403': {
    name: 'Forbidden',
    description: 'The caller may not do this: a permission is missing, or the tenant is not theirs.',
    example: { message: 'You do not have permission to do this.' },
  },
  '404': {
    name: 'NotFound',
    description: 'Nothing with this id, or nothing the caller may see.',
    example: { message: 'Not found.' },
  },
  '409': {
    name: 'Conflict',
    description: 'The item changed since it was read, or one with the same key already exists.',
    example: { message: 'An item with the same key already exists.' },
  },
  '413': {
    name: 'PayloadTooLarge',
    description: 'The request body is larger than the portal accepts.',
    example: { message: 'Request body is too large' },
  },
  '429': {
    name: 'TooManyRequests',
    description: "Too many requests: the caller's rate, or the tenant's concurrent reads, are over their limit.",
    example: { message: 'Too many requests. Please try again later.' },
  },
} as const satisfies Record<string, { name: string; description: string; example: Record<string, unknown> }>;

type ErrorStatus = keyof typeof ERROR_ANSWERS;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body of a route that reads its body itself, as the API document describes it (not validated by it). */
    documentedBody?: ZodType;
  }
}

/** Who may call a route, in words, from its one declaration (route-permission.ts). */
export function describePermission(permission: RoutePermission | undefined): string {
  if (permission === undefined || permission === 'public') return 'Public: no credential is needed.';
  if (permission === 'signed-in') return 'Any signed-in user.';
  if (typeof permission === 'object' && 'machine' in permission) {
    const kinds = permission.machine.map((kind) =>
      kind === 'device' ? "a device agent's credential" : 'a tenant API token',
    );
    return `Called with ${kinds.join(' or ')}, never by a person.`;
  }
  const names = typeof permission === 'string' ? [permission] : permission;
  const spelled = names.map((name) => {
    const [area = '', verb = '', mine] = name.split(':');
    return mine ? `${area} ${verb} (their own)` : `${area} ${verb}`;
  });
  return `A signed-in user with the permission ${spelled.join(' or ')}, within the tenants they may work in.`;
}

function securityOf(permission: RoutePermission | undefined): Record<string, string[]>[] {
  if (permission === undefined || permission === 'public') return [];
  if (typeof permission === 'object' && 'machine' in permission)
    return permission.machine.map((kind): Record<string, string[]> => ({
      [kind === 'device' ? 'deviceCredential' : 'apiToken']: [],
    }));
  return [{ bearer: [] }];
}

/** The error answers of an operation, from what it takes and who may call it. */
function errorStatuses(route: RouteOptions, permission: RoutePermission | undefined): ErrorStatus[] {
  const schema: FastifySchema = route.schema ?? {};
  const statuses: ErrorStatus[] = [];
  const method = (Array.isArray(route.method) ? route.method[0] : route.method) ?? 'GET';
  const writes = method !== 'GET' && method !== 'HEAD';
  // Any request may be malformed (an address that does not decode, a body that does not parse).
  statuses.push('400');
  const isPublic = permission === undefined || permission === 'public';
  if (!isPublic) statuses.push('401', '403');
  if (route.url.includes(':')) statuses.push('404');
  if (writes) statuses.push('409');
  if (schema.body || writes) statuses.push('413');
  if (!isPublic || route.config?.rateLimit !== undefined) statuses.push('429');
  return statuses;
}

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema; example?: unknown }> };
  responses?: Record<string, unknown>;
  'x-error-statuses'?: ErrorStatus[];
}

export interface OpenApiDocument {
  info: { version: string; [key: string]: unknown };
  servers?: {
    url: string;
    description?: string;
    variables?: Record<string, { default: string; description?: string }>;
  }[];
  tags?: { name: string; description: string }[];
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options']);

/**
 * The API document's options for @fastify/swagger: each operation says who may call it (from its
 * permission), which credential it takes, the errors it may answer with the one error body, and an
 * example of its request body; the document names PUBLIC_URL as its server, its version
 * (API_VERSION, raised by `npm run api:document` when the API changes) and each area's tags.
 */
export function apiDocumentOptions(config: Config, areas: readonly AreaManifest[]): FastifyDynamicSwaggerOptions {
  const tagDescriptions = new Map<string, string>();
  for (const area of areas) {
    for (const [name, description] of Object.entries(area.apiTags ?? {})) {
      if (tagDescriptions.has(name)) throw new Error(`The API tag '${name}' is described by two areas`);
      tagDescriptions.set(name, description);
    }
  }
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${config.environment.name} API`,
        version: API_VERSION,
        description:
          'The API of the portal: what its web app calls, for scripts and integrations. Call it with a bearer ' +
          "token: a signed-in user's access token, a tenant API token (for the agent and packet routes) or a " +
          "device agent's credential. Lists take OData-style options ($filter, $orderby, $top, $skip, $count, " +
          '$expand, $select) and answer `{ value, @odata.count, @odata.nextLink }`. Every error answers ' +
          '`{ message, errors? }`.',
        contact: { name: `${config.environment.name} administrators` },
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      // The address as a variable whose default is PUBLIC_URL: a copy of the document stays usable elsewhere.
      servers: [
        {
          url: '{publicUrl}',
          description: 'This portal',
          variables: { publicUrl: { default: config.publicUrl, description: "The portal's address (PUBLIC_URL)" } },
        },
      ],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: "A signed-in user's access token from the identity provider.",
          },
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            description: "A tenant's API token (Administration, API tokens): enrols agents and reports packets.",
          },
          deviceCredential: {
            type: 'http',
            scheme: 'bearer',
            description: 'The credential a device agent receives when its enrolment is promoted.',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: (input) => {
      const { route } = input;
      // A body the handler reads itself (a packet batch, with its own per-item messages) is
      // described from the schema it declares for the document, not validated by it.
      const documentedBody = route.config?.documentedBody;
      const transformed = jsonSchemaTransform(
        documentedBody ? { ...input, schema: { ...input.schema, body: documentedBody } } : input,
      );
      const permission = route.config?.permission;
      const deprecation = route.config?.deprecation;
      const schema = transformed.schema as Record<string, unknown>;
      const own = typeof schema.description === 'string' ? `${schema.description}\n\n` : '';
      const sunset = deprecation
        ? `\n\nDeprecated since ${deprecation.since}; answers until ${deprecation.sunset}` +
          (deprecation.successor ? `: use ${deprecation.successor} instead.` : '.')
        : '';
      return {
        ...transformed,
        schema: {
          ...schema,
          description: `${own}Who may call it: ${describePermission(permission)}${sunset}`,
          security: securityOf(permission),
          ...(deprecation ? { deprecated: true } : {}),
          'x-error-statuses': errorStatuses(route, permission),
        },
      };
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const document = documentObject.openapiObject as OpenApiDocument;
      completeDocument(document, tagDescriptions);
      return document as typeof documentObject.openapiObject;
    },
  };
}

/** Error answers by reference, request body examples and the tags' descriptions. */
function completeDocument(document: OpenApiDocument, tagDescriptions: ReadonlyMap<string, string>): void {
  const used = new Set<string>();
  const responses: Record<string, unknown> = {};
  for (const answer of Object.values(ERROR_ANSWERS)) {
    responses[answer.name] = {
      description: answer.description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: answer.example } },
    };
  }
  for (const operations of Object.values(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!METHODS.has(method)) continue;
      for (const tag of operation.tags ?? []) used.add(tag);
      const statuses = operation['x-error-statuses'] ?? [];
      delete operation['x-error-statuses'];
      operation.responses ??= {};
      for (const status of statuses)
        operation.responses[status] ??= { $ref: `#/components/responses/${ERROR_ANSWERS[status].name}` };
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        if (media.example === undefined && media.schema) media.example = exampleOf(media.schema);
      }
    }
  }
  document.components ??= {};
  document.components.schemas = { ...document.components.schemas, Error: ERROR_SCHEMA };
  document.components.responses = responses;
  document.tags = [...used].sort().map((name) => {
    const description = tagDescriptions.get(name);
    if (!description) throw new Error(`The API tag '${name}' is described by no area (apiTags in its manifest)`);
    return { name, description };
  });
}

/** The operations of a document, as `METHOD /path`. */
export function operationsOf(document: { paths?: Record<string, object> }): Set<string> {
  const operations = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const method of Object.keys(item)) if (METHODS.has(method)) operations.add(`${method.toUpperCase()} ${path}`);
  return operations;
}

/** What the API is, apart from its name, version and address (the installation's): the digest API_DIGEST names. */
export function apiDigest(document: { info?: object; servers?: unknown }): string {
  const { info: _info, servers: _servers, ...api } = document;
  return createHash('sha256').update(JSON.stringify(api)).digest('hex');
}

/**
 * The version of a changed API (SemVer): the major number rises when an operation of the
 * previous document is gone, which breaks its clients; the minor one for any other change.
 */
export function nextApiVersion(
  version: string,
  previous: { paths?: Record<string, object> } | undefined,
  next: { paths?: Record<string, object> },
): string {
  const [major = 1, minor = 0] = version.split('.').map(Number);
  const now = operationsOf(next);
  const gone = previous ? [...operationsOf(previous)].some((operation) => !now.has(operation)) : false;
  return gone ? `${major + 1}.0.0` : `${major}.${minor + 1}.0`;
}

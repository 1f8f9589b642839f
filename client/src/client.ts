import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

/**
 * The portal's API as a typed client: `openapi-fetch` over the types openapi-typescript generates
 * from the API's document (client/openapi.json → src/schema.ts, both written by
 * `npm run api:document`). A call's path, parameters, body and answer are the document's, so a
 * change to the API that breaks a caller fails the caller's typecheck.
 *
 * @example
 *   const client = createPortalClient({ baseUrl: 'https://portal.example', token });
 *   const tenant = await ok(client.PUT('/v1/tenants', { body: { name: 'Contoso' } }));
 */
export type PortalClient = Client<paths>;

export type { paths };

export interface PortalClientOptions {
  /** The portal's address (its PUBLIC_URL), e.g. `https://portal.example`. */
  baseUrl: string;
  /** A bearer token (a user's access token or a tenant token) sent with every call. */
  token?: string;
  /** What sends a request (the global `fetch` unless given): e.g. a test's in-process transport. */
  fetch?: (request: Request) => Promise<Response>;
}

export function createPortalClient(options: PortalClientOptions): PortalClient {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.token ? { headers: { Authorization: `Bearer ${options.token}` } } : {}),
  });
}

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The JSON body an operation takes, e.g. `RequestBody<'/v1/tenants', 'put'>`. */
export type RequestBody<Path extends keyof paths, M extends Method> = paths[Path][M] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** What a call of the client answers: its data on success, else its error (openapi-fetch's `FetchResponse`). */
interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The data of a call that must succeed; any other answer is thrown as an error that names the
 * address, the status and the body.
 */
export async function ok<A extends Answer>(call: Promise<A>): Promise<Exclude<A['data'], undefined>> {
  const answer = await call;
  if (answer.error !== undefined || !answer.response.ok) {
    const body = typeof answer.error === 'string' ? answer.error : JSON.stringify(answer.error);
    throw new Error(`${answer.response.url || 'The call'} answered ${answer.response.status}: ${body}`);
  }
  return answer.data as Exclude<A['data'], undefined>;
}

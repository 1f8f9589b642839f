import type { FastifyInstance, InjectOptions } from 'fastify';

/** Statuses whose answer has no body: a `Response` made with one throws. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` that hands each request to `app.inject` (no socket, no listener): what the typed
 * client (`@cfs/client`) calls the portal with in the server tests, in-process as `portal.as` is.
 * The request's method, path and query, headers and body go to `inject`; its status, headers and
 * body come back as a `Response` whose `url` is the request's.
 */
export function injectFetch(app: FastifyInstance): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const answer = await app.inject({
      method: request.method as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      ...(body === undefined ? {} : { payload: body }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const response = new Response(NULL_BODY_STATUSES.has(answer.statusCode) ? null : answer.rawPayload, {
      status: answer.statusCode,
      headers,
    });
    Object.defineProperty(response, 'url', { value: request.url });
    return response;
  };
}

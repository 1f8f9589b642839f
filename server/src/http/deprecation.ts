import type { FastifyInstance } from 'fastify';

/**
 * A route that will go, declared in its `config.deprecation`: the API document marks it deprecated
 * (with the dates and its successor in its description), and each of its answers carries
 * `Deprecation` (RFC 9745: the moment it was deprecated), `Sunset` (RFC 8594: after which it may
 * stop answering) and a `Link` to its successor, so that a client's logs say so long before it goes.
 *
 * @example
 *   app.get('/v1/old', { config: { permission: 'Locations:view',
 *     deprecation: { since: '2026-12-01', sunset: '2027-06-01', successor: '/v1/locations' } } }, handler);
 */
export interface RouteDeprecation {
  /** The day it was deprecated (YYYY-MM-DD, UTC). */
  readonly since: string;
  /** The day after which it may stop answering (YYYY-MM-DD, UTC). */
  readonly sunset: string;
  /** The path that replaces it. */
  readonly successor?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    deprecation?: RouteDeprecation;
  }
}

function dayOf(text: string, field: string): Date {
  const day = new Date(`${text}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(day.getTime()))
    throw new Error(`A route's deprecation.${field} must be a day (YYYY-MM-DD): ${text}`);
  return day;
}

/** Refuses a malformed declaration when the route is registered, and sends the headers on each answer. */
export function registerDeprecationHeaders(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const deprecation = route.config?.deprecation;
    if (!deprecation) return;
    dayOf(deprecation.since, 'since');
    dayOf(deprecation.sunset, 'sunset');
  });
  app.addHook('onRequest', async (request, reply) => {
    const deprecation = request.routeOptions.config.deprecation;
    if (!deprecation) return;
    reply.header('Deprecation', `@${dayOf(deprecation.since, 'since').getTime() / 1000}`);
    reply.header('Sunset', dayOf(deprecation.sunset, 'sunset').toUTCString());
    if (deprecation.successor) reply.header('Link', `<${deprecation.successor}>; rel="successor-version"`);
  });
}

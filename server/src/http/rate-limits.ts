import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashCredential, isDeviceCredential } from '../auth/machine-callers.js';
import { HttpError } from './errors.js';

const MINUTE_MS = 60_000;

export const MACHINE_RATE_LIMIT_MESSAGE = 'Too many requests. Try again later.';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Refuses with 429 and Retry-After (seconds) a request past `limiter`'s limit. Usable beside a
 * route's own `config.rateLimit`, which lets only the first limit of a request count.
 */
export async function enforceLimit(
  limiter: Limiter,
  request: FastifyRequest,
  reply: FastifyReply,
  message: string,
): Promise<void> {
  const result = await limiter(request);
  if (result.isAllowed || !result.isExceeded) return;
  void reply.header('Retry-After', String(Math.max(1, result.ttlInSeconds)));
  throw new HttpError(429, message);
}

function bearerCredential(request: FastifyRequest): string | undefined {
  const match = /^bearer\s+(\S+)/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/**
 * The agent API and packet ingestion (routes declaring `permission: { machine: [...] }`) are limited per
 * address and per credential (a tenant API token, or a device credential at a tenth of a token's
 * figure), before the credential is looked up, so neither a flood nor a guess of credentials
 * reaches the database past its limit. The counts are this instance's: behind a load balancer of
 * N instances a caller may make up to N times as many calls.
 */
export function registerMachineRateLimits(app: FastifyInstance, tokenPerMinute: number): void {
  const perAddress = app.createRateLimit({ max: tokenPerMinute * 2, timeWindow: MINUTE_MS });
  const perCredential = app.createRateLimit({
    max: (request) =>
      isDeviceCredential(bearerCredential(request) ?? '')
        ? Math.max(1, Math.floor(tokenPerMinute / 10))
        : tokenPerMinute,
    timeWindow: MINUTE_MS,
    // Counted under the credential's hash, as it is stored: the raw credential is not kept.
    keyGenerator: (request) => hashCredential(bearerCredential(request) ?? ''),
  });
  app.addHook('onRequest', async (request, reply) => {
    const permission = request.routeOptions.config.permission;
    if (typeof permission !== 'object' || !('machine' in permission)) return;
    await enforceLimit(perAddress, request, reply, MACHINE_RATE_LIMIT_MESSAGE);
    if (bearerCredential(request) !== undefined)
      await enforceLimit(perCredential, request, reply, MACHINE_RATE_LIMIT_MESSAGE);
  });
}

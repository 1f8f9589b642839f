import { pino, type Logger } from 'pino';
import type { Config } from '../config.js';
import { currentRequestId } from './request-context.js';

/**
 * The log of the parts of the portal outside a request (the worker role, start-up): JSON lines like
 * the HTTP server's, with the request id of the work they belong to (`reqId`, as Fastify names it),
 * so one request can be followed from its HTTP line into the jobs it caused.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, bindings: Record<string, unknown>): Logger {
  return pino({
    level: config.logLevel,
    base: { pid: process.pid, ...bindings },
    mixin: () => {
      const reqId = currentRequestId();
      return reqId ? { reqId } : {};
    },
  });
}

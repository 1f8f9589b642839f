import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { parseLsn, READ_AFTER_WRITE_SECONDS, type ReadRouting } from '../db/read-routing.js';

const COOKIE = 'cfs_read_after';
const HEADER = 'x-read-after';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Runs this request's list, export, report or dashboard read on the read replica when one is
     * configured and has the caller's own last write, else on the primary (db/read-routing.ts).
     */
    read<T>(work: (db: Db, onReplica: boolean) => Promise<T>): Promise<T>;
  }
}

/** The log position of the caller's last write, from the header an API client sends back or the browser's cookie. */
function readAfter(request: FastifyRequest): bigint | undefined {
  const header = request.headers[HEADER];
  if (typeof header === 'string') return parseLsn(header);
  const cookie = request.headers.cookie?.split(/;\s*/).find((part) => part.startsWith(`${COOKIE}=`));
  return cookie ? parseLsn(decodeURIComponent(cookie.slice(COOKIE.length + 1))) : undefined;
}

/** Gives every request its `reader()`, and hands a signed-in writer the position its next reads must wait for. */
export function registerReadRouting(app: FastifyInstance, routing: ReadRouting): void {
  app.decorateRequest('read', function read<T>(this: FastifyRequest, work: (db: Db, onReplica: boolean) => Promise<T>) {
    return routing.read(routing.hasReplica ? readAfter(this) : undefined, work);
  });
  if (!routing.hasReplica) return;
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400 || !request.principal)
      return payload;
    const lsn = await routing.writePosition();
    reply.header('X-Read-After', lsn);
    reply.header(
      'Set-Cookie',
      `${COOKIE}=${encodeURIComponent(lsn)}; Max-Age=${READ_AFTER_WRITE_SECONDS}; Path=/; HttpOnly; SameSite=Strict${request.protocol === 'https' ? '; Secure' : ''}`,
    );
    return payload;
  });
}

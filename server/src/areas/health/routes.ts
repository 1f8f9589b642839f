import { timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import type { Db } from '../../db/database.js';
import { pendingMigrations } from '../../db/migrate.js';
import { liveWorkers } from '../../engines/jobs/heartbeat.js';
import { renderMetrics } from '../../observability/metrics.js';

export interface Readiness {
  ready: boolean;
  checks: { database: boolean; migrations: boolean; workers: number };
}

/**
 * Whether this instance should be sent traffic: its database answers, every migration of this build
 * has run (an instance of a newer build waits for the one migrating), and at least one worker process
 * has said it is alive within the last 30 s (without one, nothing queued would ever run).
 */
export async function readiness(db: Db): Promise<Readiness> {
  try {
    await sql`SELECT 1`.execute(db);
  } catch {
    return { ready: false, checks: { database: false, migrations: false, workers: 0 } };
  }
  const [pending, workers] = await Promise.all([pendingMigrations(db), liveWorkers(db)]);
  const checks = { database: true, migrations: pending.length === 0, workers };
  return { ready: checks.migrations && workers > 0, checks };
}

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `/healthz`: live (the process answers and reaches its database). `/readyz`: ready for traffic
 * (503 with the failing checks otherwise). `/metrics`: Prometheus text for a scraper holding
 * METRICS_TOKEN; not served on this port without one (METRICS_PORT serves it on a port of its own).
 */
export const healthRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ db, config }) =>
  async (app) => {
    app.get('/healthz', { config: { permission: 'public' }, schema: { hide: true } }, async (_request, reply) => {
      await sql`SELECT 1`.execute(db);
      return reply.send({ status: 'ok' });
    });
    app.get('/readyz', { config: { permission: 'public' }, schema: { hide: true } }, async (_request, reply) => {
      const { ready, checks } = await readiness(db);
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
    });
    app.get('/metrics', { config: { permission: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const expected = config.metrics.token;
      if (!expected) return reply.code(404).send({ message: 'Not found.' });
      const sent = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!sent || !sameToken(sent, expected))
        return reply
          .code(401)
          .header('WWW-Authenticate', 'Bearer')
          .send({ message: 'The metrics token is missing or wrong.' });
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await renderMetrics(db));
    });
  };

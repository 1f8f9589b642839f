import { sql } from 'kysely';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/database.js';

/**
 * The process's Prometheus metrics (GET /metrics, observability/metrics-routes.ts). One registry per
 * process, shared by the api and worker roles it runs; each instance is scraped on its own and
 * Prometheus adds them up. Counters only count here; queue depth and pool use are read when scraped.
 *
 * @example
 *   metrics.ingestedPackets.inc(stored);
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'cfs_' });

const pools = new Set<pg.Pool>();

/** Database pools whose use `/metrics` reports; a pool that has ended is dropped at the next scrape. */
export function trackPool(pool: pg.Pool): void {
  pools.add(pool);
}

export const metrics = {
  httpRequestSeconds: new Histogram({
    name: 'cfs_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  }),
  ingestedPackets: new Counter({
    name: 'cfs_ingest_packets_total',
    help: 'Packets stored by ingestion (re-sent ones not counted).',
    registers: [registry],
  }),
  ingestBatchSize: new Histogram({
    name: 'cfs_ingest_batch_size',
    help: 'Packets per accepted ingestion batch.',
    buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000],
    registers: [registry],
  }),
  ingestCommitBatches: new Histogram({
    name: 'cfs_ingest_commit_batches',
    help: 'Batches of agents posting at once written by one statement and commit.',
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers: [registry],
  }),
  ruleEvaluations: new Counter({
    name: 'cfs_rule_evaluations_total',
    help: 'Rule evaluations against a subject (a packet, a work unit event, a window).',
    labelNames: ['kind'] as const,
    registers: [registry],
  }),
  ruleMatches: new Counter({
    name: 'cfs_rule_matches_total',
    help: 'Rule matches opened or raised.',
    labelNames: ['kind'] as const,
    registers: [registry],
  }),
  actionOutcomes: new Counter({
    name: 'cfs_action_runs_total',
    help: 'Action runs by outcome.',
    labelNames: ['status'] as const,
    registers: [registry],
  }),
  jobOutcomes: new Counter({
    name: 'cfs_jobs_total',
    help: 'Jobs run by this process, by task and outcome.',
    labelNames: ['task', 'outcome'] as const,
    registers: [registry],
  }),
  principalCache: new Counter({
    name: 'cfs_principal_cache_lookups_total',
    help: "Signed-in requests by whether the caller's principal came from the cache.",
    labelNames: ['result'] as const,
    registers: [registry],
  }),
  jobQueueDepth: new Gauge({
    name: 'cfs_job_queue_depth',
    help: 'Jobs due and waiting for a worker, by task (the whole installation).',
    labelNames: ['task'] as const,
    registers: [registry],
  }),
  jobQueueAge: new Gauge({
    name: 'cfs_job_queue_oldest_seconds',
    help: 'How long the oldest due job of each task has waited (the whole installation).',
    labelNames: ['task'] as const,
    registers: [registry],
  }),
  poolConnections: new Gauge({
    name: 'cfs_db_pool_connections',
    help: "The process's database connections: in use, idle, and requests waiting for one.",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      let total = 0;
      let idle = 0;
      let waiting = 0;
      for (const pool of pools) {
        if (pool.ended) {
          pools.delete(pool);
          continue;
        }
        total += pool.totalCount;
        idle += pool.idleCount;
        waiting += pool.waitingCount;
      }
      this.set({ state: 'in_use' }, total - idle);
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'waiting' }, waiting);
    },
  }),
};

/**
 * The metrics as Prometheus text: the queue's depth and age read from the job table now (due jobs
 * only, from the index workers claim by), the rest as counted.
 */
export async function renderMetrics(db: Db): Promise<string> {
  const { rows } = await sql<{ task: string; due: number; oldest: number }>`
    SELECT task, count(*)::int AS due, extract(epoch FROM now() - min(run_at))::float8 AS oldest
    FROM job WHERE state = 'pending' AND run_at <= now() GROUP BY task`.execute(db);
  metrics.jobQueueDepth.reset();
  metrics.jobQueueAge.reset();
  for (const row of rows) {
    metrics.jobQueueDepth.set({ task: row.task }, row.due);
    metrics.jobQueueAge.set({ task: row.task }, row.oldest);
  }
  return registry.metrics();
}

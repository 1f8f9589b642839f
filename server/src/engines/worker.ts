import { deleteExpiredSignInRecords } from '../auth/embedded/adapter.js';
import { actionRunTask } from './actions/runner.js';
import { createLogger } from '../observability/logger.js';
import type { Runtime } from '../runtime.js';
import { startJobWorker } from './jobs/worker.js';
import { deleteFinishedJobs } from './jobs/retention.js';
import type { TaskDefinition } from './jobs/task.js';
import { MAINTENANCE_TASKS } from './maintenance/tasks.js';
import { RULE_ENGINE_TASKS } from './rules/tasks.js';

/**
 * The worker role: runs the engines' tasks (the rule engine, the one action runner that every
 * rule, protocol and catalogue test run goes through), the maintenance windows of approved
 * planned-outage changes, the areas' tasks and the portal's own housekeeping from the job table.
 * Returns its stop function.
 */
export function startWorker(runtime: Runtime, areaTasks: readonly TaskDefinition<unknown>[]): () => Promise<void> {
  const tasks = [
    deleteFinishedJobs,
    ...(runtime.provider ? [deleteExpiredSignInRecords] : []),
    ...RULE_ENGINE_TASKS,
    ...MAINTENANCE_TASKS,
    actionRunTask,
    ...areaTasks,
  ];
  const logger = createLogger(runtime.config, { role: 'worker' });
  const worker = startJobWorker({
    db: runtime.db,
    tasks,
    // Serving the API from the same pool too (ROLE=all), jobs leave most connections to requests.
    ...(runtime.config.role === 'all' ? { concurrency: 4 } : {}),
    listenUrl: runtime.databaseUrl,
    leaseMs: runtime.config.jobLeaseSeconds * 1000,
    log: (message, error, fields) => logger.error({ ...fields, err: error }, message),
  });
  return () => worker.stop();
}

import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Runs `work` as part of the request `requestId`: jobs enqueued meanwhile remember it
 * (engines/jobs/queue.ts), so a job's log lines carry the id of the request that caused it, and the
 * jobs it enqueues in turn carry it on.
 */
export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

/** The request the current work belongs to, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

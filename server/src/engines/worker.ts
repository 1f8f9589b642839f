import { deleteExpiredPayloads } from '../auth/embedded/adapter.js';
import type { Runtime } from '../runtime.js';

const HOUSEKEEPING_INTERVAL_MS = 15 * 60 * 1000;

/**
 * The worker role. For now it keeps house (expired sign-in records); the engines (ingestion,
 * rules, protocols, actions) join it as their areas arrive. Returns its stop function.
 */
export function startWorker(runtime: Runtime): () => Promise<void> {
  const housekeeping = async () => {
    try {
      if (runtime.provider) await deleteExpiredPayloads(runtime.db);
    } catch (error) {
      console.error('housekeeping failed', error);
    }
  };
  void housekeeping();
  const timer = setInterval(() => void housekeeping(), HOUSEKEEPING_INTERVAL_MS);
  timer.unref();
  return async () => clearInterval(timer);
}

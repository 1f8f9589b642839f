import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { PORTAL_EXITED_FILE } from './global-setup';
import { closeFileBrowser, launchFileBrowser } from './support';

/**
 * Before a browser test file: waits until the portal of the global setup (global-setup.ts)
 * answers, then launches the file's browser. It starts while the other projects' setups run; once it is up, this is one request.
 */
const HEALTHY_WITHIN_MS = 90_000;

beforeAll(async () => {
  const url = `${inject('portalUrl')}/healthz`;
  const deadline = Date.now() + HEALTHY_WITHIN_MS;
  const exited = path.join(inject('portalDataDir'), PORTAL_EXITED_FILE);
  for (;;) {
    const why = await fs.readFile(exited, 'utf8').catch(() => undefined);
    if (why !== undefined) throw new Error(why);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(
        `The browser tests' portal did not answer at ${url} within ${HEALTHY_WITHIN_MS / 1000} s (its output is in the run's log)`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, HEALTHY_WITHIN_MS + 10_000);

/** The file's browser (`browser` of support.ts), one per file, closed after its last test. */
beforeAll(launchFileBrowser, 60_000);
afterAll(closeFileBrowser);

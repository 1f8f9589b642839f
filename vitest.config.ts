import { defaultClientConditions, defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

const serverTests = ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'];
/** The long suites of `npm run test:hard`: processes killed mid-stream, load, backup and restore. */
const hardTests = ['server/test/hard/**/*.test.ts'];
/**
 * Browser files that count the answers of the server's change counters (304 Not Modified), or the
 * calls a live screen makes (the blocks screen's live stream test): a write by a test of another
 * file at the same moment would move the counters under them, or tell their stream of a change
 * (the stream follows tables, not tenants), so they run alone, after the rest.
 */
const aloneBrowserTests = ['web/e2e/list-polling.test.ts', 'web/e2e/blocks.test.ts'];

/**
 * What the browser projects share: the built portal their global setup starts (each file waits
 * until it answers), and their waits.
 */
const browserProject = {
  globalSetup: ['web/e2e/global-setup.ts'],
  setupFiles: ['web/e2e/portal-ready.ts'],
  testTimeout: 90_000,
  hookTimeout: 120_000,
  // A page answers in its own time on a busy machine: a poll waits up to 10 s for it (vitest's
  // own default, 1 s, failed a page that took longer to render its first answer).
  expect: { poll: { timeout: 10_000 } },
  // A browser test that fails is run once more before it counts as failed: a page on a loaded
  // machine now and then misses one of its waits. `npm test` names each test that needed the
  // second try and prints its first failure (scripts/test-run.mjs), so that none goes unseen.
  retry: 1,
};

/**
 * One runner for every suite. The server suite runs once, on the PostgreSQL server at
 * TEST_DATABASE_URL when it answers, else on an embedded server its global setup starts.
 */
export default defineConfig({
  // Workspace packages are read from their TypeScript sources (the `source` export condition).
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
  test: {
    // Two files at a time, one per core: a browser test waits on its page for a third of its time,
    // and the server suite's files on the database.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'contracts', include: ['contracts/src/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'server',
          include: serverTests,
          exclude: [...configDefaults.exclude, ...hardTests],
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // A worker runs its files one after another in one process that loads the server's
          // modules once. Each file's portal has a database of its own and closes in its afterAll;
          // a file that sets an environment variable restores it after each test. Loading the
          // modules again for each of the 67 files was 120 of the suite's 400 s here.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'hard',
          include: hardTests,
          globalSetup: ['server/test/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 600_000,
          hookTimeout: 300_000,
        },
      },
      { extends: true, test: { name: 'web', include: ['web/src/**/*.test.{ts,tsx}'] } },
      {
        extends: true,
        test: {
          name: 'agent',
          include: ['agent/src/**/*.test.ts'],
          // The agent's tests run the agent against a portal, a service manager and downloads of its
          // own: on a loaded machine a test took longer than vitest's default 5 s with nothing wrong.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...aloneBrowserTests],
          ...browserProject,
        },
      },
      // After every other file (a later group), with nothing beside it.
      {
        extends: true,
        test: {
          name: 'e2e-alone',
          include: aloneBrowserTests,
          sequence: { groupOrder: 1 },
          maxWorkers: 1,
          ...browserProject,
        },
      },
    ],
  },
});

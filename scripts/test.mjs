// `npm test`: every suite in one run — contracts, server, web units, the agent, and the browser tests in
// Chromium — then one line `N passed, N failed`.
import fs from 'node:fs';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root, run } from './lib.mjs';

await ensureInstalled();

// The server suite runs on the PostgreSQL server at TEST_DATABASE_URL (CI: the machine's local
// one) when it answers, else on an embedded server its global setup starts.
const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const projects = ['contracts', 'server', 'web', 'agent', 'e2e'];

// The browser tests drive the built portal.
await ensureBuilt();

const report = path.join(root, '.tmp', 'vitest-report.json');
fs.mkdirSync(path.dirname(report), { recursive: true });
fs.rmSync(report, { force: true });
const extra = process.argv.slice(2);
const code = await run(
  'npx',
  ['vitest', 'run', ...projects.flatMap((project) => ['--project', project]), '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra],
  { env: { ...process.env, TEST_DATABASE_URL: databaseUrl } },
);

// A run that produced no report, or failed outside any test, counts as one failure.
const result = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : undefined;
const passed = result?.numPassedTests ?? 0;
const counted = result ? result.numFailedTests + (result.numRuntimeErrorTestSuites ?? 0) : 1;
const failed = counted === 0 && (code !== 0 || result?.success === false) ? 1 : counted;
console.log(`${passed} passed, ${failed} failed`);
process.exit(code !== 0 || failed > 0 ? 1 : 0);

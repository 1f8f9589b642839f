// One vitest run over some projects, ending with each suite's figure lines and then the line
// `N passed, N failed`: shared by `npm test` and `npm run test:hard`.
import fs from 'node:fs';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root, run } from './lib.mjs';

/**
 * Runs `projects`; returns the exit code. Extra command-line arguments go to vitest. The agent's
 * single executables are built first only when `agentExecutables` says so: no test of `npm test`
 * runs them (the browser tests' agent runs from its bundle, the download route is tested with a
 * stand-in file), and they were a third of a clean clone's build.
 */
export async function runSuites(projects, { name, agentExecutables = false }) {
  await ensureInstalled();
  // The server suite runs on the PostgreSQL server at TEST_DATABASE_URL (CI: the machine's local
  // one) when it answers, else on an embedded server its global setup starts.
  const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  // The browser tests and the process-level suites drive the built portal.
  await ensureBuilt({ agentExecutables });

  const report = path.join(root, '.tmp', `vitest-${name}.json`);
  // Suites that measure something append one line each here (server/test/figures.ts).
  const figures = path.join(root, '.tmp', `figures-${name}.txt`);
  fs.mkdirSync(path.dirname(report), { recursive: true });
  fs.rmSync(report, { force: true });
  fs.rmSync(figures, { force: true });
  const extra = process.argv.slice(2);
  const code = await run(
    'npx',
    [
      'vitest',
      'run',
      ...projects.flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...extra,
    ],
    { env: { ...process.env, TEST_DATABASE_URL: databaseUrl, CFS_FIGURES_FILE: figures } },
  );

  if (fs.existsSync(figures)) {
    console.log('\nFigures:');
    process.stdout.write(fs.readFileSync(figures, 'utf8'));
  }
  // A run that produced no report, or failed outside any test, counts as one failure.
  const result = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : undefined;
  // A test that passed on its second try (the browser projects' `retry`) keeps its first failure.
  const retried = (result?.testResults ?? []).flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'passed' && test.failureMessages.length > 0)
      .map((test) => ({
        name: `${path.relative(root, file.name)} › ${test.fullName}`,
        failure: test.failureMessages[0],
      })),
  );
  if (retried.length > 0) {
    console.log(`\nPassed on a second try: ${retried.length}`);
    for (const test of retried) console.log(`- ${test.name}\n  first try: ${test.failure.split('\n')[0]}`);
  }
  const passed = result?.numPassedTests ?? 0;
  const counted = result ? result.numFailedTests + (result.numRuntimeErrorTestSuites ?? 0) : 1;
  const failed = counted === 0 && (code !== 0 || result?.success === false) ? 1 : counted;
  console.log(`${passed} passed, ${failed} failed`);
  return code !== 0 || failed > 0 ? 1 : 0;
}

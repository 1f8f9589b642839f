// `npm run lint:api`: the API document (client/openapi.json, written by `npm run api:document`)
// linted by Redocly's recommended rules and Spectral's OpenAPI rules; any error or warning fails.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const document = 'client/openapi.json';
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Runs a linter that exits non-zero when it finds problems; its JSON report is what counts. */
async function report(command, args) {
  const { stdout } = await promisify(execFile)(command, args, { cwd: root, maxBuffer: 64 * 1024 * 1024 }).catch(
    (failure) => failure,
  );
  return JSON.parse(stdout);
}

const redocly = await report(bin('redocly'), ['lint', document, '--format=json', '--max-problems=100000']);
const spectral = await report(bin('spectral'), ['lint', document, '--format=json', '--quiet']);
const redoclyProblems = redocly.problems.map((p) => ({
  severity: p.severity === 'error' ? 'error' : 'warning',
  rule: p.ruleId,
  where: p.location?.[0]?.pointer ?? '',
  message: p.message,
}));
// Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
const spectralProblems = spectral
  .filter((p) => p.severity <= 1)
  .map((p) => ({
    severity: p.severity === 0 ? 'error' : 'warning',
    rule: p.code,
    where: p.path.join('.'),
    message: p.message,
  }));

let failed = false;
for (const [name, problems] of [
  ['Redocly (recommended)', redoclyProblems],
  ['Spectral (spectral:oas)', spectralProblems],
]) {
  const errors = problems.filter((p) => p.severity === 'error').length;
  for (const p of problems.slice(0, 50)) console.error(`${p.severity} ${p.rule} ${p.where}: ${p.message}`);
  console.log(`${name}: ${errors} errors, ${problems.length - errors} warnings`);
  failed ||= problems.length > 0;
}
process.exit(failed ? 1 : 0);

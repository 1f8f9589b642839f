// Helpers shared by the top-level scripts. Plain Node (no dependencies): they run before `npm ci`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export async function mustRun(command, args, options) {
  const code = await run(command, args, options);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Installs the dependencies when node_modules is missing or older than the lockfile. */
export async function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  console.log('Installing dependencies (npm ci)…');
  await mustRun('npm', ['ci', '--no-audit', '--no-fund']);
}

/**
 * Builds contracts, server, web and the agent when any of their sources is newer than the build.
 * `agentExecutables: false` makes only the agent's bundle, which the demo agent runs from; the
 * single executables (a minute of work, and a download of Node for Windows the first time) are
 * then built by `buildAgentExecutablesInBackground` for `npm start`, so that the portal need not
 * wait for them, and not at all for `npm test`.
 */
export async function ensureBuilt({ agentExecutables = true } = {}) {
  const sources = [
    'contracts/src',
    'server/src',
    'web/src',
    'web/index.html',
    'web/vite.config.ts',
    'web/public',
    'agent/src',
    'scripts/build-agent-executables.mjs',
    'package-lock.json',
  ].map((item) => newestMtime(path.join(root, item)));
  const agentOutput = agentExecutables ? 'agent/dist/.build-stamp' : 'agent/dist/.bundle-stamp';
  const outputs = ['server/dist/main.js', 'web/dist/index.html', agentOutput].map((item) =>
    newestMtime(path.join(root, item)),
  );
  if (Math.min(...outputs) > Math.max(...sources)) return;
  console.log('Building the portal…');
  // Two at a time, as `npm run build` does them one after another: the server's compiler (which
  // builds the contracts it references first) beside the web app's and the agent's bundles, which
  // read the contracts' sources.
  const agent = [
    process.execPath,
    ['scripts/build-agent-executables.mjs', ...(agentExecutables ? [] : ['--bundle-only'])],
  ];
  await Promise.all([
    mustRun('npm', ['run', 'build', '-w', 'server']),
    mustRun('npm', ['run', 'build', '-w', 'web']).then(() => mustRun(...agent)),
  ]);
}

/** The agent's single executables, built beside the running portal; the returned function stops the build. */
export function buildAgentExecutablesInBackground() {
  const child = spawn(process.execPath, ['scripts/build-agent-executables.mjs'], { cwd: root, stdio: 'inherit' });
  child.on('error', (error) => console.warn(`The agent executables were not built: ${error.message}`));
  return () => child.exitCode === null && child.kill();
}

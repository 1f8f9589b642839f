// `npm start`: installs what is missing, builds what is stale, then runs the portal (migrating and
// seeding the embedded database on first start) on http://localhost:8080.
import { spawn } from 'node:child_process';
import { buildAgentExecutablesInBackground, ensureBuilt, ensureInstalled, root } from './lib.mjs';

await ensureInstalled();
// The agent's downloads are built while the portal starts; until they are, they answer 404.
await ensureBuilt({ agentExecutables: false });
const stopAgentBuild = buildAgentExecutablesInBackground();
process.exitCode = await runPortal();
stopAgentBuild();

/**
 * The portal in a process group of its own, to which this process hands SIGINT and SIGTERM once:
 * a stop sent to this process alone (`kill <pid>`) stops the portal gracefully, with its database
 * server and demo agent, where it used to leave them running; and Ctrl-C, which reaches npm and
 * this process, reaches the portal once, not twice (a second signal ends it at once).
 */
function runPortal() {
  const portal = spawn(process.execPath, ['server/dist/main.js'], { cwd: root, stdio: 'inherit', detached: true });
  let forwarded = false;
  const forward = (signal) => {
    if (forwarded) return;
    forwarded = true;
    portal.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve, reject) => {
    portal.on('error', reject);
    portal.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

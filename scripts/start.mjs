// `npm start`: installs what is missing, builds what is stale, then runs the portal (migrating and
// seeding the embedded database on first start) on http://localhost:8080.
import { buildAgentExecutablesInBackground, ensureBuilt, ensureInstalled, root, run } from './lib.mjs';

await ensureInstalled();
// The agent's downloads are built while the portal starts; until they are, they answer 404.
await ensureBuilt({ agentExecutables: false });
const stopAgentBuild = buildAgentExecutablesInBackground();
process.exitCode = await run(process.execPath, ['server/dist/main.js'], { cwd: root });
stopAgentBuild();

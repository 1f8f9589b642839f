// `npm start`: installs what is missing, builds what is stale, then runs the portal (migrating and
// seeding the embedded database on first start) on http://localhost:8080.
import { ensureBuilt, ensureInstalled, root, run } from './lib.mjs';

await ensureInstalled();
await ensureBuilt();
process.exitCode = await run(process.execPath, ['server/dist/main.js'], { cwd: root });

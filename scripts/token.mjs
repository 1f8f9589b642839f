// `npm run --silent token -- <user>`: prints a bearer access token for a user of the embedded
// identity provider (same DATA_DIR / PUBLIC_URL / PORT as the server).
import { root, run } from './lib.mjs';

process.exitCode = await run(
  process.execPath,
  ['--conditions=source', '--import', 'tsx', 'server/src/cli/token.ts', ...process.argv.slice(2)],
  { cwd: root },
);

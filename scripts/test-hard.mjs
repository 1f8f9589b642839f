// `npm run test:hard`: the long reliability and security suites (processes killed mid-stream,
// load, backup and restore), then each suite's figure line and one line `N passed, N failed`.
import { runSuites } from './test-run.mjs';

process.exit(await runSuites(['hard'], { name: 'hard' }));

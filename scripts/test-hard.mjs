// `npm run test:hard`: the long reliability and security suites (processes killed mid-stream,
// load, backup and restore), then each suite's figure line and one line `N passed, N failed`. It
// builds the agent's single executables too, so that a change that breaks their build is seen.
import { runSuites } from './test-run.mjs';

process.exit(await runSuites(['hard'], { name: 'hard', agentExecutables: true }));

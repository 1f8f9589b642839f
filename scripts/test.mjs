// `npm test`: every fast suite in one run — contracts, server, web units, the agent, and the
// browser tests in Chromium — then each suite's figure line and one line `N passed, N failed`.
import { runSuites } from './test-run.mjs';

process.exit(await runSuites(['contracts', 'server', 'web', 'agent', 'e2e', 'e2e-alone'], { name: 'test' }));

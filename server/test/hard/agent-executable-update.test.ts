import fs from 'node:fs';
import path from 'node:path';
import { agentUpdateSuite } from '../agent-update-suite.js';
import { repositoryRoot } from '../processes.js';

/*
 * The Linux single executable (`npm run test:hard` builds it) as the installed program: it takes a
 * release of the agent package, runs it in its own process, and goes back from one that cannot run.
 * The executable is never replaced: what it runs is in the data folder.
 */
const executable = path.join(repositoryRoot, 'agent', 'dist', 'cfs-agent-linux-x64');

agentUpdateSuite('the single executable updates itself', () => {
  if (!fs.existsSync(executable)) throw new Error(`${executable} is not built (npm run build)`);
  return [executable];
});

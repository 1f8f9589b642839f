import fs from 'node:fs';
import path from 'node:path';
import { agentUpdateSuite } from './agent-update-suite.js';

/*
 * The agent's bundle run by Node, as the portal's demo agent runs it, updating itself and going
 * back (the single executable, which runs the same code, in hard/agent-executable-update.test.ts).
 */
agentUpdateSuite('the agent (its bundle under Node) updates itself', (folder, release) => {
  const program = path.join(folder, 'program', 'cfs-agent.cjs');
  fs.mkdirSync(path.dirname(program), { recursive: true });
  fs.copyFileSync(release, program);
  return [process.execPath, program];
});

import { prepareDemoAgent, runDemoAgent } from '../src/areas/agent/demo-agent.js';
import type { TestPortal } from './harness.js';
import { agentProgram, fromSources } from './processes.js';

export interface RunningDemoAgent {
  /** The demo agent's own data folder. */
  dataDir: string;
  /** What the agent has printed so far, for a failing test's message. */
  output: string[];
  /** Stops the agent and puts back the environment it was started with. */
  stop(): Promise<void>;
}

/**
 * The real demo agent beside a listening test portal, started as the portal starts it
 * (`runDemoAgent`, the agent from its sources), fetching its configuration every 200 ms. `env` is
 * the portal process's environment for the while (the server suite's files share one process, so
 * it is put back at `stop`): the demo agent inherits what it does not refuse.
 *
 * @example
 *   const agent = await startDemoAgent(portal);
 *   afterAll(() => agent.stop());
 */
export async function startDemoAgent(
  portal: TestPortal & { origin: string },
  env: Record<string, string> = {},
): Promise<RunningDemoAgent> {
  const demo = await prepareDemoAgent(portal.db, portal.config);
  if (!demo) throw new Error('The test portal runs no demo agent');
  const settings: Record<string, string> = { CFS_AGENT_POLL_MS: '200', ...env };
  const saved = Object.entries(settings).map(([name]) => [name, process.env[name]] as const);
  Object.assign(process.env, settings);
  const output: string[] = [];
  const stopAgent = runDemoAgent([process.execPath, ...fromSources(agentProgram)], {
    server: portal.origin,
    ...demo,
    log: (line) => void output.push(line),
  });
  return {
    dataDir: demo.dataDir,
    output,
    async stop() {
      await stopAgent();
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}

import path from 'node:path';
import { parseArgs } from 'node:util';
import { Agent } from './agent.js';
import { outboundPolicy } from './http-check.js';

const USAGE = [
  'Usage: cfs-agent --server URL --token TOKEN [--data DIR] [--name MACHINE-NAME] [--outbound-allow HOSTS] [--read-allow DIRS]',
  '  (npm run agent -- --server URL --token TOKEN [...the same options])',
  '  --outbound-allow HOSTS  internal hosts operations may call besides the portal (CFS_AGENT_OUTBOUND_ALLOW)',
  '  --read-allow DIRS       folders whose files Read File operations may read, besides the data folder',
  '                          (its secrets never); separated by commas or the path delimiter (CFS_AGENT_READ_ALLOW).',
  '                          Only this machine sets it: the portal cannot widen it.',
].join('\n');

/**
 * The agent's command line. A restart asked for by the portal starts the agent afresh in this same
 * process (it re-reads its data folder and configuration), so whatever runs it as a service
 * keeps its handle on one process. The exit code says why it ended: 0 stopped, 2 bad arguments,
 * 3 refused by the portal (token revoked, device disabled).
 */
async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        server: { type: 'string' },
        token: { type: 'string' },
        data: { type: 'string' },
        name: { type: 'string' },
        'outbound-allow': { type: 'string' },
        'read-allow': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      // A single executable sees its own path as the first argument.
      args: process.argv.slice(2),
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const server = values.server ?? process.env.CFS_PORTAL_URL;
  const token = values.token ?? process.env.CFS_AGENT_TOKEN;
  if (!server || !token) {
    console.error(USAGE);
    return 2;
  }
  const dataDir = path.resolve(values.data ?? process.env.CFS_AGENT_DATA ?? 'cfs-agent-data');
  // Tests shorten the configuration poll; the portal's interval otherwise.
  const pollMs = process.env.CFS_AGENT_POLL_MS ? Number(process.env.CFS_AGENT_POLL_MS) : undefined;
  const outboundAllow = values['outbound-allow'] ?? process.env.CFS_AGENT_OUTBOUND_ALLOW ?? '';
  const readAllow = values['read-allow'] ?? process.env.CFS_AGENT_READ_ALLOW ?? '';
  try {
    outboundPolicy(server, outboundAllow);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }

  let current: Agent | undefined;
  const stop = () => current?.stop();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Started by a parent that holds a channel to it (the portal's demo agent), it stops when that
  // parent goes, however it went: a portal killed with SIGKILL leaves no agent behind.
  if (process.channel) process.on('disconnect', stop);
  for (;;) {
    current = new Agent({
      server,
      token,
      dataDir,
      ...(values.name ? { machineName: values.name } : {}),
      ...(pollMs ? { pollMs } : {}),
      outboundAllow,
      readAllow,
    });
    const exit = await current.run();
    if (exit.kind === 'restart') {
      current.log.info('Restarting');
      continue;
    }
    if (exit.kind === 'refused') {
      current.log.error(`The portal refused this agent: ${exit.message}`);
      return 3;
    }
    current.log.info('Stopped');
    return 0;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

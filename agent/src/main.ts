import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_RESTART_EXIT_CODE } from '@cfs/contracts/agent';
import { Agent } from './agent.js';
import { DataFolder } from './data-folder.js';
import { outboundPolicy } from './http-check.js';
import { chooseRelease, launchedRelease, runRelease, watchTrial } from './releases.js';
import { AGENT_VERSION } from './version.js';
import {
  SETTINGS_FILE,
  TOKEN_FILE,
  defaultLayout,
  installService,
  isSupervised,
  filesOnly,
  systemd,
  taskScheduler,
  uninstallService,
  type AgentSettings,
  type ServiceLayout,
  type ServiceManager,
} from './service.js';

const LINUX = defaultLayout('linux');
const WINDOWS = defaultLayout('win32');

const USAGE = [
  'Usage:',
  '  cfs-agent install --portal URL [--token-file FILE] [--name MACHINE-NAME] [--outbound-allow HOSTS] [--read-allow DIRS] [--script-allow PACKAGES]',
  '      installs the agent as a service, restarted when it ends: on Linux the cfs-agent systemd service (run as root),',
  `      on Windows the "${WINDOWS.serviceName}" scheduled task, started at boot as SYSTEM (run from an elevated prompt);`,
  '      the tenant token is read from FILE, or from standard input without --token-file; run again to change its settings',
  '  cfs-agent uninstall',
  '      stops the service and removes it, its files and the device identity',
  '  --files-only: install or uninstall writes or removes the files only, without systemctl or schtasks (an image started later)',
  '  cfs-agent [run] --portal URL [--token-file FILE] [--data DIR] [--name MACHINE-NAME] [--outbound-allow HOSTS] [--read-allow DIRS] [--script-allow PACKAGES]',
  '      runs the agent in the foreground (npm run agent -- the same options); the token from FILE, CFS_AGENT_TOKEN,',
  '      or the data folder an install wrote; without --portal, CFS_PORTAL_URL or that folder',
  '  cfs-agent version [--release FILE]',
  "      prints the agent's version (with --release, the version of that release of the agent)",
  '  --outbound-allow HOSTS  internal hosts operations may call besides the portal (CFS_AGENT_OUTBOUND_ALLOW)',
  '  --read-allow DIRS       folders whose files Read File operations may read, besides the data folder',
  '                          (its secrets never); separated by commas or the path delimiter (CFS_AGENT_READ_ALLOW).',
  '  --script-allow PACKAGES  the catalogue packages whose scripts Script operations may run here, by name, separated',
  '                          by commas (CFS_AGENT_SCRIPT_ALLOW); none without it. A script runs only when the portal',
  '                          signed it too, under the key this agent pinned the first time it heard from the portal.',
  '                          Only this machine sets it: the portal cannot widen it.',
  '  --self-update on|off    whether the agent takes the versions the portal offers (on; CFS_AGENT_SELF_UPDATE): each',
  "                          is checked against its SHA-256 and the portal's signature under the pinned key, must",
  '                          start, and is given up (the version before it runs again) when it does not report in time.',
  '                          A service only: an agent started by hand does not update itself.',
  "  --supervised            something starts the agent again when it ends (the scheduled task says so; systemd's",
  `                          INVOCATION_ID does too): a restart the portal asks for ends it with exit code ${AGENT_RESTART_EXIT_CODE}`,
  "  where install and uninstall put things (the Windows defaults are under this machine's ProgramData and Program Files):",
  `  --data DIR              the data folder: ${LINUX.dataDir}; Windows: ${WINDOWS.dataDir}`,
  `  --bin-dir DIR           the executable's folder: ${LINUX.binDir}; Windows: ${WINDOWS.binDir}`,
  `  --unit-dir DIR          the unit file's folder: ${LINUX.unitDir}; Windows: the task's XML definition's, by default the --bin-dir`,
  `  --service-name NAME     the systemd unit: ${LINUX.serviceName}; Windows: the scheduled task, ${WINDOWS.serviceName}`,
].join('\n');

/** Thrown for a command line or settings the agent cannot run with: printed with the usage, exit code 2. */
class UsageError extends Error {}

const OPTIONS = {
  portal: { type: 'string' },
  'token-file': { type: 'string' },
  data: { type: 'string' },
  name: { type: 'string' },
  'outbound-allow': { type: 'string' },
  'read-allow': { type: 'string' },
  'script-allow': { type: 'string' },
  'service-name': { type: 'string' },
  'unit-dir': { type: 'string' },
  'bin-dir': { type: 'string' },
  'files-only': { type: 'boolean' },
  supervised: { type: 'boolean' },
  'self-update': { type: 'string' },
  release: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

/** A token as one line of text: from the file, or standard input for `-` (install's default when it is not a terminal). */
function readToken(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `The token could not be read from ${file === '-' ? 'standard input' : file}: ${(error as Error).message}`,
    );
  }
  const token = text.trim();
  if (!token || token.includes('\n')) throw new UsageError('The token file must hold the token alone, on one line.');
  return token;
}

/** The outbound allow list as `outboundPolicy` reads it: one it cannot read is a usage error. */
function checkOutbound(server: string, allow: string): void {
  try {
    outboundPolicy(server, allow);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `--self-update on|off`: anything else is a usage error. */
function selfUpdateOf(text: string): 'on' | 'off' {
  if (text !== 'on' && text !== 'off') throw new UsageError('--self-update takes on or off.');
  return text;
}

function layoutOf(values: Values): ServiceLayout {
  const defaults = defaultLayout(process.platform);
  const binDir = path.resolve(values['bin-dir'] ?? defaults.binDir);
  return {
    serviceName: values['service-name'] ?? defaults.serviceName,
    // On Windows the task's definition is kept beside the executable, wherever that goes.
    unitDir: path.resolve(values['unit-dir'] ?? (process.platform === 'win32' ? binDir : defaults.unitDir)),
    binDir,
    dataDir: path.resolve(values.data ?? defaults.dataDir),
  };
}

/** systemd on Linux, the Task Scheduler on Windows; none elsewhere. */
function serviceManager(values: Values): ServiceManager {
  const manager = process.platform === 'linux' ? systemd() : process.platform === 'win32' ? taskScheduler() : undefined;
  if (!manager)
    throw new UsageError(
      'cfs-agent install and uninstall make a systemd service on Linux or a scheduled task on Windows only.',
    );
  return values['files-only'] ? filesOnly(manager) : manager;
}

function install(values: Values): number {
  if (!values.portal) throw new UsageError('cfs-agent install needs --portal URL.');
  const manager = serviceManager(values);
  const token = readToken(values['token-file'] ?? (process.stdin.isTTY ? undefined : '-'));
  if (!token) throw new UsageError('Give the tenant token with --token-file FILE, or on standard input.');
  checkOutbound(values.portal, values['outbound-allow'] ?? '');
  const settings: AgentSettings = {
    server: values.portal,
    ...(values.name ? { name: values.name } : {}),
    ...(values['outbound-allow'] ? { outboundAllow: values['outbound-allow'] } : {}),
    ...(values['read-allow'] ? { readAllow: values['read-allow'] } : {}),
    ...(values['script-allow'] ? { scriptAllow: values['script-allow'] } : {}),
    ...(values['self-update'] ? { selfUpdate: selfUpdateOf(values['self-update']) } : {}),
  };
  const layout = layoutOf(values);
  const result = withRights(manager, () => installService(settings, token, layout, manager));
  for (const line of result.messages) console.log(line);
  return 0;
}

function uninstall(values: Values): number {
  const manager = serviceManager(values);
  const layout = layoutOf(values);
  for (const line of withRights(manager, () => uninstallService(layout, manager)).messages) console.log(line);
  return 0;
}

/**
 * Install and uninstall write where only root (on Windows, an elevated Administrator) may: a
 * refusal says so instead of a stack trace.
 */
function withRights<T>(manager: ServiceManager, work: () => T): T {
  try {
    return work();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM')
      throw new UsageError(
        manager.kind === 'task-scheduler'
          ? `${(error as Error).message}: run cfs-agent install and uninstall from an elevated prompt (Run as administrator).`
          : `${(error as Error).message}: run cfs-agent install and uninstall as root (sudo).`,
      );
    throw error;
  }
}

/** What `main` answers when it handed the process over to a release of the agent, which ends it itself. */
const HANDED_OVER = 'handed over';

/**
 * Runs the agent until it is stopped; a restart asked for by the portal ends a supervised process
 * (its manager starts a new one). The installed program first runs the release this machine took
 * from the portal, if any (agent/src/releases.ts), in this same process.
 */
async function run(values: Values): Promise<number | typeof HANDED_OVER> {
  const dataDir = path.resolve(values.data ?? process.env.CFS_AGENT_DATA ?? 'cfs-agent-data');
  const folder = new DataFolder(dataDir);
  if (!launchedRelease()) {
    const choice = await chooseRelease(folder, new Date(), (line) => console.log(line));
    if (choice.kind === 'release') {
      if (choice.trialUntil)
        watchTrial(folder, choice.trialUntil, AGENT_RESTART_EXIT_CODE, (line) => console.log(line));
      console.log(`Running the agent ${choice.release.version} (${choice.release.file})`);
      runRelease(choice.release.file);
      return HANDED_OVER;
    }
  }
  const saved = folder.readJson<AgentSettings>(SETTINGS_FILE);
  const server = values.portal ?? process.env.CFS_PORTAL_URL ?? saved?.server;
  const token =
    readToken(values['token-file']) ??
    process.env.CFS_AGENT_TOKEN ??
    (fs.existsSync(folder.file(TOKEN_FILE)) ? readToken(folder.file(TOKEN_FILE)) : undefined);
  if (!server || !token)
    throw new UsageError('The agent needs its portal (--portal) and a tenant token (--token-file).');
  const name = values.name ?? saved?.name;
  // Tests shorten the configuration poll; the portal's interval otherwise.
  const pollMs = process.env.CFS_AGENT_POLL_MS ? Number(process.env.CFS_AGENT_POLL_MS) : undefined;
  const outboundAllow = values['outbound-allow'] ?? process.env.CFS_AGENT_OUTBOUND_ALLOW ?? saved?.outboundAllow ?? '';
  const readAllow = values['read-allow'] ?? process.env.CFS_AGENT_READ_ALLOW ?? saved?.readAllow ?? '';
  const scriptAllow = values['script-allow'] ?? process.env.CFS_AGENT_SCRIPT_ALLOW ?? saved?.scriptAllow ?? '';
  const selfUpdate = selfUpdateOf(
    values['self-update'] ?? process.env.CFS_AGENT_SELF_UPDATE ?? saved?.selfUpdate ?? 'on',
  );
  const supervised = isSupervised(values.supervised);
  checkOutbound(server, outboundAllow);

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
      ...(name ? { machineName: name } : {}),
      ...(pollMs ? { pollMs } : {}),
      outboundAllow,
      readAllow,
      scriptAllow,
      selfUpdate: selfUpdate === 'on' && supervised,
    });
    const exit = await current.run();
    if (exit.kind === 'restart') {
      if (supervised) {
        current.log.info(
          `Restarting: this process ends (exit code ${AGENT_RESTART_EXIT_CODE}) and its service manager starts a new one`,
        );
        return AGENT_RESTART_EXIT_CODE;
      }
      current.log.info(
        'Restarting within this process (nothing would start it again: cfs-agent install makes it a service)',
      );
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

/**
 * The agent's command line: `install`, `uninstall`, or `run` (the default). The exit code says
 * why it ended: 0 stopped, 2 bad arguments or settings, 3 refused by the portal (token revoked,
 * device disabled), 75 restart asked for by the portal (supervised runs only).
 */
async function main(): Promise<number | typeof HANDED_OVER> {
  try {
    if (process.argv.slice(2).some((arg) => arg === '--token' || arg.startsWith('--token=')))
      throw new UsageError(
        'The token is not taken on the command line, where every user of the machine can read it: give it with --token-file FILE, or on standard input to install.',
      );
    const { values, positionals } = parseArgs({
      options: OPTIONS,
      // A single executable sees its own path as the first argument.
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: true,
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    const [command = 'run', ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`Unexpected argument: ${rest[0]}`);
    if (command === 'install') return install(values);
    if (command === 'uninstall') return uninstall(values);
    if (command === 'run') return await run(values);
    if (command === 'version') {
      // A release the agent is about to take tells its version through the running program.
      if (values.release && !launchedRelease()) {
        runRelease(values.release);
        return HANDED_OVER;
      }
      console.log(AGENT_VERSION);
      return 0;
    }
    throw new UsageError(`Unknown command: ${command}`);
  } catch (error) {
    const known = error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS');
    if (!known) throw error;
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
}

main().then(
  (code) => {
    if (code !== HANDED_OVER) process.exit(code);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isSea } from 'node:sea';

/** The files the agent keeps beside its identity once installed: its settings, and the tenant token (owner-only). */
export const SETTINGS_FILE = 'agent.json';
export const TOKEN_FILE = 'token';

/** What `cfs-agent run` reads from its data folder when its command line does not say it. */
export interface AgentSettings {
  server: string;
  name?: string;
  outboundAllow?: string;
  readAllow?: string;
}

/**
 * Whether something restarts this process when it exits: systemd sets INVOCATION_ID for each
 * start of a unit, and the portal starts its demo agent with a channel to itself. An agent started
 * by hand has neither: it restarts within its process, as it has no one to bring it back.
 */
export function isSupervised(env: NodeJS.ProcessEnv = process.env, hasChannel = Boolean(process.channel)): boolean {
  return Boolean(env.INVOCATION_ID) || hasChannel;
}

/** The service manager the installer registers the agent with (systemd: `systemctl`). */
export interface ServiceManager {
  /** Whether the manager runs on this machine; when it does not, the unit is written and the commands to start it are printed. */
  readonly running: boolean;
  run(args: readonly string[]): void;
}

/** systemd, when this machine booted with it (sd_booted(3): /run/systemd/system exists). */
export function systemd(): ServiceManager {
  return {
    running: fs.existsSync('/run/systemd/system'),
    run: (args) => void execFileSync('systemctl', args, { stdio: 'inherit' }),
  };
}

/** For `--files-only`: the files are written or removed, and systemd is not asked anything (an image started later). */
export const filesOnly: ServiceManager = {
  running: false,
  run: () => {
    throw new Error('--files-only asks systemd nothing');
  },
};

export interface ServiceLayout {
  /** The unit's name, without `.service`. */
  serviceName: string;
  /** Where unit files go (/etc/systemd/system). */
  unitDir: string;
  /** Where the executable is copied to (/opt/cfs-agent), when it is a single executable. */
  binDir: string;
  /** The agent's data folder (/var/lib/cfs-agent). */
  dataDir: string;
}

export const DEFAULT_LAYOUT: ServiceLayout = {
  serviceName: 'cfs-agent',
  unitDir: '/etc/systemd/system',
  binDir: '/opt/cfs-agent',
  dataDir: '/var/lib/cfs-agent',
};

/** How this agent is started again: the single executable alone, or Node with its flags and the agent's script. */
export function thisAgentCommand(): { program: string; args: string[]; single: boolean } {
  if (isSea()) return { program: process.execPath, args: [], single: true };
  return { program: process.execPath, args: [...process.execArgv, path.resolve(process.argv[1]!)], single: false };
}

/** One word of a unit's command line, quoted as systemd.service(5) reads it (and `%` doubled, as specifiers start with it). */
function unitWord(word: string): string {
  const text = word.replaceAll('%', '%%');
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** The systemd unit that runs the agent from `program args… run --data DIR`, restarted whenever it ends but when the portal refused it. */
export function systemdUnit(command: { program: string; args: readonly string[] }, layout: ServiceLayout): string {
  const exec = [command.program, ...command.args, 'run', '--data', layout.dataDir].map(unitWord).join(' ');
  return [
    '[Unit]',
    'Description=CFS Portal agent',
    'Wants=network-online.target',
    'After=network-online.target',
    '',
    '[Service]',
    `ExecStart=${exec}`,
    // A restart asked for by the portal ends the process with 75; any other end but a refusal
    // (3: token revoked, device disabled) or bad settings (2) is a crash: both start it again.
    'Restart=always',
    'RestartSec=1',
    'RestartPreventExitStatus=2 3',
    'UMask=0077',
    'NoNewPrivileges=true',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}

/** Writes `content` to `file` (mode `mode`) unless it holds it already; answers whether it changed. */
function writeIfChanged(file: string, content: string | Buffer, mode: number): boolean {
  const next = typeof content === 'string' ? Buffer.from(content) : content;
  let same = false;
  try {
    same = fs.readFileSync(file).equals(next);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (same) {
    fs.chmodSync(file, mode);
    return false;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  const temporary = `${file}.tmp`;
  fs.writeFileSync(temporary, next, { mode });
  fs.chmodSync(temporary, mode);
  fs.renameSync(temporary, file);
  return true;
}

export interface InstallResult {
  /** The files written or changed (none when everything was as asked already). */
  changed: string[];
  /** What the installer said, line by line (what it did, or the commands to run where systemd does not run). */
  messages: string[];
}

/**
 * Installs the agent as a systemd service: its settings and the tenant token in its data folder
 * (the token readable by its owner only, never on a command line), the single executable copied
 * beside it, and the unit, then enables and starts it — or restarts it when something changed.
 * Run again with the same settings it changes nothing (idempotent); with other settings it
 * rewrites them and restarts the service. The agent keeps its identity (its key and device
 * credential) across installs: uninstall removes it.
 */
export function installService(
  settings: AgentSettings,
  token: string,
  layout: ServiceLayout,
  manager: ServiceManager,
  command = thisAgentCommand(),
): InstallResult {
  const changed: string[] = [];
  const note = (file: string, didChange: boolean) => void (didChange && changed.push(file));
  fs.mkdirSync(layout.dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(layout.dataDir, 0o700);
  note(
    path.join(layout.dataDir, TOKEN_FILE),
    writeIfChanged(path.join(layout.dataDir, TOKEN_FILE), `${token}\n`, 0o600),
  );
  note(
    path.join(layout.dataDir, SETTINGS_FILE),
    writeIfChanged(path.join(layout.dataDir, SETTINGS_FILE), `${JSON.stringify(settings, null, 2)}\n`, 0o600),
  );
  let runAs = command;
  if (command.single) {
    const installed = path.join(layout.binDir, 'cfs-agent');
    if (path.resolve(command.program) !== installed)
      note(installed, writeIfChanged(installed, fs.readFileSync(command.program), 0o755));
    runAs = { ...command, program: installed };
  }
  const unitFile = path.join(layout.unitDir, `${layout.serviceName}.service`);
  note(unitFile, writeIfChanged(unitFile, systemdUnit(runAs, layout), 0o644));
  const messages: string[] = [];
  if (!manager.running) {
    messages.push(
      `${unitFile} is written, and not started (--files-only, or systemd does not run on this machine); start the agent with`,
      `  systemctl daemon-reload && systemctl enable --now ${layout.serviceName}`,
    );
    return { changed, messages };
  }
  manager.run(['daemon-reload']);
  manager.run(['enable', '--now', layout.serviceName]);
  if (changed.length > 0) manager.run(['restart', layout.serviceName]);
  messages.push(
    changed.length > 0
      ? `The ${layout.serviceName} service is installed and running.`
      : `The ${layout.serviceName} service was installed as asked already: nothing changed.`,
  );
  return { changed, messages };
}

/** Stops and removes the service, its unit, the copied executable and the data folder (the device's identity with it). Safe to run again. */
export function uninstallService(layout: ServiceLayout, manager: ServiceManager): InstallResult {
  const unitFile = path.join(layout.unitDir, `${layout.serviceName}.service`);
  const messages: string[] = [];
  if (manager.running && fs.existsSync(unitFile)) manager.run(['disable', '--now', layout.serviceName]);
  const changed = [unitFile, path.join(layout.binDir, 'cfs-agent'), layout.dataDir].filter((file) =>
    fs.existsSync(file),
  );
  fs.rmSync(unitFile, { force: true });
  fs.rmSync(path.join(layout.binDir, 'cfs-agent'), { force: true });
  fs.rmSync(layout.dataDir, { recursive: true, force: true });
  // The folder the executable was copied to goes when nothing else is in it.
  if (fs.existsSync(layout.binDir) && fs.readdirSync(layout.binDir).length === 0) fs.rmdirSync(layout.binDir);
  if (manager.running && changed.includes(unitFile)) manager.run(['daemon-reload']);
  messages.push(
    changed.length > 0
      ? `The ${layout.serviceName} service and its files are removed.`
      : `The ${layout.serviceName} service was not installed: nothing to remove.`,
  );
  return { changed, messages };
}

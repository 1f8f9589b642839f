import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RELEASES_FILE } from './releases.js';
import { isSea } from 'node:sea';
import { windowsTool } from './windows-tools.js';

/** The files the agent keeps beside its identity once installed: its settings, and the tenant token (owner-only). */
export const SETTINGS_FILE = 'agent.json';
export const TOKEN_FILE = 'token';

/** What `cfs-agent run` reads from its data folder when its command line does not say it. */
export interface AgentSettings {
  server: string;
  name?: string;
  outboundAllow?: string;
  readAllow?: string;
  scriptAllow?: string;
  selfUpdate?: 'on' | 'off';
}

/**
 * Whether something restarts this process when it exits: the scheduled task that runs the agent on
 * Windows says so on its command line (`run --supervised`, as a task's action sets no environment),
 * systemd sets INVOCATION_ID for each start of a unit, and the portal starts its demo agent with a
 * channel to itself. An agent started by hand has none of these: it restarts within its process, as
 * it has no one to bring it back.
 */
export function isSupervised(
  saidSo = false,
  env: NodeJS.ProcessEnv = process.env,
  hasChannel = Boolean(process.channel),
): boolean {
  return saidSo || Boolean(env.INVOCATION_ID) || hasChannel;
}

/** How a command ended: its exit status, and what it printed (told when it failed). */
export interface CommandResult {
  status: number;
  output: string;
}

/**
 * The service manager the installer registers the agent with: systemd (`systemctl`) on Linux, the
 * Task Scheduler (`schtasks`, with `icacls` for the data folder's rights) on Windows. The commands
 * go through it, so that tests record them instead of running them.
 */
export interface ServiceManager {
  readonly kind: 'systemd' | 'task-scheduler';
  /**
   * Whether the agent is registered and started: false for `--files-only`, or where systemd does
   * not run; then the files are written and the commands that start the agent printed.
   */
  readonly running: boolean;
  /** Runs a command to its end. */
  run(program: string, args: readonly string[]): CommandResult;
  /** Starts a command that outlives this process (Windows: the removal of this very executable, once it has ended). */
  startDetached(program: string, args: readonly string[]): void;
}

function runCommand(program: string, args: readonly string[]): CommandResult {
  const result = spawnSync(program, args, { encoding: 'utf8', windowsHide: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, output: `${result.stdout}${result.stderr}`.trim() };
}

function startDetachedCommand(program: string, args: readonly string[]): void {
  spawn(program, args, { detached: true, stdio: 'ignore', windowsHide: true }).unref();
}

/** Runs a command that must succeed: a failure throws, with what it printed. */
function mustRun(manager: ServiceManager, program: string, args: readonly string[]): void {
  const { status, output } = manager.run(program, args);
  if (status !== 0)
    throw new Error(`${program} ${args.join(' ')} failed (exit code ${status})${output ? `: ${output}` : ''}`);
}

/** systemd, when this machine booted with it (sd_booted(3): /run/systemd/system exists). */
export function systemd(): ServiceManager {
  return {
    kind: 'systemd',
    running: fs.existsSync('/run/systemd/system'),
    run: runCommand,
    startDetached: startDetachedCommand,
  };
}

/**
 * The Windows Task Scheduler. Its tools are run from System32 by their full path (`windowsTool`):
 * the installer runs elevated from wherever the executable was downloaded to.
 */
export function taskScheduler(env: NodeJS.ProcessEnv = process.env): ServiceManager {
  const tools: Readonly<Record<string, string>> = {
    schtasks: windowsTool('schtasks', env),
    icacls: windowsTool('icacls', env),
    powershell: windowsTool('powershell', env),
  };
  return {
    kind: 'task-scheduler',
    running: true,
    run: (program, args) => {
      const result = runCommand(tools[program] ?? program, args);
      // /End asks the Task Scheduler to end the agent, and is not documented to wait for its
      // process: a /Run while the instance still counts as running would be ignored (IgnoreNew)
      // and leave the agent stopped until the next boot. The pause lets the instance end first.
      if (program === 'schtasks' && args[0] === '/End') pause(2000);
      return result;
    },
    startDetached: (program, args) => startDetachedCommand(tools[program] ?? program, args),
  };
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * For `--files-only`: the files are written or removed, and the service manager is asked nothing
 * (an image started later). On Windows the data folder's rights are still set (`icacls`): the token
 * goes into it.
 */
export function filesOnly(manager: ServiceManager): ServiceManager {
  return { ...manager, running: false };
}

export interface ServiceLayout {
  /** The systemd unit's name, without `.service`; on Windows, the scheduled task's. */
  serviceName: string;
  /** Where unit files go (/etc/systemd/system); on Windows, where the task's XML definition is kept. */
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

/**
 * Where the service goes on this platform: on Windows, the executable and the task's definition in
 * `%ProgramFiles%\CFS Agent` and the data in `%ProgramData%\CFS Agent`; elsewhere DEFAULT_LAYOUT.
 */
export function defaultLayout(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): ServiceLayout {
  if (platform !== 'win32') return DEFAULT_LAYOUT;
  const programs = path.win32.join(env.ProgramFiles ?? 'C:\\Program Files', 'CFS Agent');
  return {
    serviceName: 'CFS Agent',
    unitDir: programs,
    binDir: programs,
    dataDir: path.win32.join(env.ProgramData ?? 'C:\\ProgramData', 'CFS Agent'),
  };
}

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

/**
 * One word of a Windows command line, quoted the way the C runtime (and so Node) splits the line
 * back into words: in double quotes when it has a space, a tab or a quote, or is empty; a quote
 * inside is escaped with a backslash, and the backslashes just before a quote are doubled.
 */
export function windowsWord(word: string): string {
  if (word !== '' && !/[\s"]/.test(word)) return word;
  return `"${word.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

const xmlText = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');

/**
 * The Task Scheduler's task (schema 1.2: Windows 7 and Server 2008 R2 on) that runs the agent from
 * `program args… run --data DIR --supervised`: started at boot as SYSTEM, for as long as it runs (no
 * time limit, on batteries too), one instance at a time, and started again a minute after it ended
 * with a non-zero exit code. The Task Scheduler expands `%NAME%` in the command and its arguments,
 * and has no escape for it: the paths are taken as they are.
 */
export function scheduledTaskXml(command: { program: string; args: readonly string[] }, layout: ServiceLayout): string {
  const args = [...command.args, 'run', '--data', layout.dataDir, '--supervised'].map(windowsWord).join(' ');
  return [
    '<?xml version="1.0" encoding="UTF-16"?>',
    '<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">',
    '  <RegistrationInfo>',
    '    <Description>CFS Portal agent</Description>',
    '  </RegistrationInfo>',
    '  <Triggers>',
    '    <BootTrigger>',
    '      <Enabled>true</Enabled>',
    '    </BootTrigger>',
    '  </Triggers>',
    '  <Principals>',
    '    <Principal id="Author">',
    '      <UserId>S-1-5-18</UserId>',
    '      <RunLevel>HighestAvailable</RunLevel>',
    '    </Principal>',
    '  </Principals>',
    '  <Settings>',
    '    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>',
    '    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>',
    '    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>',
    '    <AllowStartOnDemand>true</AllowStartOnDemand>',
    '    <AllowHardTerminate>true</AllowHardTerminate>',
    '    <Enabled>true</Enabled>',
    '    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>',
    // The schema's shortest interval and largest count (an unsigned byte).
    '    <RestartOnFailure>',
    '      <Interval>PT1M</Interval>',
    '      <Count>255</Count>',
    '    </RestartOnFailure>',
    '  </Settings>',
    '  <Actions Context="Author">',
    '    <Exec>',
    `      <Command>${xmlText(command.program)}</Command>`,
    `      <Arguments>${xmlText(args)}</Arguments>`,
    '    </Exec>',
    '  </Actions>',
    '</Task>',
    '',
  ].join('\r\n');
}

/** The task's XML as `schtasks /Create /XML` reads it: UTF-16 little-endian, after its byte order mark. */
export function scheduledTaskFile(xml: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
}

/** Whether `file` holds `content` already. */
function holds(file: string, content: Buffer): boolean {
  try {
    return fs.readFileSync(file).equals(content);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return false;
  }
}

/** Writes `content` to `file` (mode `mode`) unless it holds it already; answers whether it changed. */
function writeIfChanged(file: string, content: string | Buffer, mode: number): boolean {
  const next = typeof content === 'string' ? Buffer.from(content) : content;
  if (holds(file, next)) {
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
  /** The files written, changed or removed (none when everything was as asked already). */
  changed: string[];
  /** What the installer said, line by line (what it did, or the commands to run where it registered nothing). */
  messages: string[];
}

type AgentCommand = ReturnType<typeof thisAgentCommand>;

/** The installed executable: Windows runs a program by its `.exe`. */
function installedProgram(layout: ServiceLayout, manager: ServiceManager): string {
  return path.join(layout.binDir, manager.kind === 'task-scheduler' ? 'cfs-agent.exe' : 'cfs-agent');
}

/** Whether two paths name one file (Windows's are the same in any case). */
function samePath(a: string, b: string, manager: ServiceManager): boolean {
  const [left, right] = [path.resolve(a), path.resolve(b)];
  return manager.kind === 'task-scheduler' ? left.toLowerCase() === right.toLowerCase() : left === right;
}

/** The token (its owner's only, never on a command line) and the settings, in the data folder. */
function writeDataFiles(settings: AgentSettings, token: string, layout: ServiceLayout, changed: string[]): void {
  const tokenFile = path.join(layout.dataDir, TOKEN_FILE);
  if (writeIfChanged(tokenFile, `${token}\n`, 0o600)) changed.push(tokenFile);
  const settingsFile = path.join(layout.dataDir, SETTINGS_FILE);
  if (writeIfChanged(settingsFile, `${JSON.stringify(settings, null, 2)}\n`, 0o600)) changed.push(settingsFile);
}

/**
 * Installs the agent as a service: its settings and the tenant token in its data folder (readable
 * by the service's account only, never on a command line), the single executable copied beside it,
 * and the service itself — a systemd unit on Linux, a scheduled task on Windows — registered and
 * started, or restarted when something changed. Run again with the same settings it changes nothing
 * (idempotent); with other settings it rewrites them and restarts the service. The agent keeps its
 * identity (its key and device credential) across installs: uninstall removes it.
 */
export function installService(
  settings: AgentSettings,
  token: string,
  layout: ServiceLayout,
  manager: ServiceManager,
  command = thisAgentCommand(),
): InstallResult {
  return manager.kind === 'task-scheduler'
    ? installScheduledTask(settings, token, layout, manager, command)
    : installSystemdUnit(settings, token, layout, manager, command);
}

/**
 * A new program installed by the machine's owner is what runs: the releases the agent took from
 * the portal (agent/src/releases.ts) are forgotten, and the portal offers its version again if it
 * wants another.
 */
function forgetReleases(layout: ServiceLayout): string[] {
  const forgotten = [RELEASES_FILE, 'releases']
    .map((name) => path.join(layout.dataDir, name))
    .filter((entry) => fs.existsSync(entry));
  for (const entry of forgotten) fs.rmSync(entry, { recursive: true, force: true });
  return forgotten;
}

function installSystemdUnit(
  settings: AgentSettings,
  token: string,
  layout: ServiceLayout,
  manager: ServiceManager,
  command: AgentCommand,
): InstallResult {
  const changed: string[] = [];
  fs.mkdirSync(layout.dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(layout.dataDir, 0o700);
  writeDataFiles(settings, token, layout, changed);
  let runAs = command;
  if (command.single) {
    const installed = installedProgram(layout, manager);
    if (
      !samePath(command.program, installed, manager) &&
      writeIfChanged(installed, fs.readFileSync(command.program), 0o755)
    )
      changed.push(installed, ...forgetReleases(layout));
    runAs = { ...command, program: installed };
  }
  const unitFile = path.join(layout.unitDir, `${layout.serviceName}.service`);
  if (writeIfChanged(unitFile, systemdUnit(runAs, layout), 0o644)) changed.push(unitFile);
  const messages: string[] = [];
  if (!manager.running) {
    messages.push(
      `${unitFile} is written, and not started (--files-only, or systemd does not run on this machine); start the agent with`,
      `  systemctl daemon-reload && systemctl enable --now ${layout.serviceName}`,
    );
    return { changed, messages };
  }
  mustRun(manager, 'systemctl', ['daemon-reload']);
  mustRun(manager, 'systemctl', ['enable', '--now', layout.serviceName]);
  if (changed.length > 0) mustRun(manager, 'systemctl', ['restart', layout.serviceName]);
  messages.push(
    changed.length > 0
      ? `The ${layout.serviceName} service is installed and running.`
      : `The ${layout.serviceName} service was installed as asked already: nothing changed.`,
  );
  return { changed, messages };
}

/**
 * The data folder's rights on Windows, which has no owner-only mode: SYSTEM (the task's account)
 * and the Administrators, and nobody else — not the Users that everything under ProgramData lets
 * read by inheritance.
 */
const DATA_FOLDER_RIGHTS = ['/inheritance:r', '/grant:r', '*S-1-5-18:(OI)(CI)F', '*S-1-5-32-544:(OI)(CI)F'];

function installScheduledTask(
  settings: AgentSettings,
  token: string,
  layout: ServiceLayout,
  manager: ServiceManager,
  command: AgentCommand,
): InstallResult {
  const task = layout.serviceName;
  const changed: string[] = [];
  const registered = manager.running && manager.run('schtasks', ['/Query', '/TN', task]).status === 0;
  let ended = false;
  // Program Files is written first: from a prompt that is not elevated the installer may not, and
  // stops there, before it leaves anything in ProgramData.
  let runAs = command;
  if (command.single) {
    const installed = installedProgram(layout, manager);
    if (!samePath(command.program, installed, manager)) {
      const program = fs.readFileSync(command.program);
      // Windows does not replace the executable of a running process: the task's agent ends first.
      if (registered && !holds(installed, program)) {
        manager.run('schtasks', ['/End', '/TN', task]);
        ended = true;
      }
      if (writeIfChanged(installed, program, 0o755)) changed.push(installed, ...forgetReleases(layout));
    }
    runAs = { ...command, program: installed };
  }
  const taskFile = path.join(layout.unitDir, `${task}.xml`);
  if (writeIfChanged(taskFile, scheduledTaskFile(scheduledTaskXml(runAs, layout)), 0o644)) changed.push(taskFile);
  // The folder is closed to other users before the token is written in it; again on each install,
  // as chmod is on Linux.
  fs.mkdirSync(layout.dataDir, { recursive: true });
  mustRun(manager, 'icacls', [layout.dataDir, ...DATA_FOLDER_RIGHTS]);
  writeDataFiles(settings, token, layout, changed);
  const messages: string[] = [];
  if (!manager.running) {
    messages.push(
      `${taskFile} is written, and not registered (--files-only); from an elevated prompt, register and start the agent with`,
      `  schtasks /Create /TN ${windowsWord(task)} /XML ${windowsWord(taskFile)} /F`,
      `  schtasks /Run /TN ${windowsWord(task)}`,
    );
    return { changed, messages };
  }
  if (!registered || changed.length > 0) mustRun(manager, 'schtasks', ['/Create', '/TN', task, '/XML', taskFile, '/F']);
  // A task that runs is not started again (IgnoreNew): it ends, for /Run to start the new settings.
  if (registered && changed.length > 0 && !ended) manager.run('schtasks', ['/End', '/TN', task]);
  mustRun(manager, 'schtasks', ['/Run', '/TN', task]);
  messages.push(
    changed.length > 0 || !registered
      ? `The ${task} scheduled task is installed and running.`
      : `The ${task} scheduled task was installed as asked already: nothing changed.`,
  );
  return { changed, messages };
}

/**
 * Stops and removes the service, its unit (or scheduled task), the copied executable and the data
 * folder (the device's identity with it). Safe to run again.
 */
export function uninstallService(
  layout: ServiceLayout,
  manager: ServiceManager,
  command = thisAgentCommand(),
): InstallResult {
  return manager.kind === 'task-scheduler'
    ? uninstallScheduledTask(layout, manager, command)
    : uninstallSystemdUnit(layout, manager);
}

function uninstallSystemdUnit(layout: ServiceLayout, manager: ServiceManager): InstallResult {
  const unitFile = path.join(layout.unitDir, `${layout.serviceName}.service`);
  const installed = installedProgram(layout, manager);
  const messages: string[] = [];
  if (manager.running && fs.existsSync(unitFile))
    mustRun(manager, 'systemctl', ['disable', '--now', layout.serviceName]);
  const changed = [unitFile, installed, layout.dataDir].filter((file) => fs.existsSync(file));
  fs.rmSync(unitFile, { force: true });
  fs.rmSync(installed, { force: true });
  fs.rmSync(layout.dataDir, { recursive: true, force: true });
  // The folder the executable was copied to goes when nothing else is in it.
  if (fs.existsSync(layout.binDir) && fs.readdirSync(layout.binDir).length === 0) fs.rmdirSync(layout.binDir);
  if (manager.running && changed.includes(unitFile)) mustRun(manager, 'systemctl', ['daemon-reload']);
  messages.push(
    changed.length > 0
      ? `The ${layout.serviceName} service and its files are removed.`
      : `The ${layout.serviceName} service was not installed: nothing to remove.`,
  );
  return { changed, messages };
}

/** Removes a file or folder; on Windows a process that just ended may hold it a moment longer. */
function remove(file: string): void {
  fs.rmSync(file, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

/**
 * A PowerShell command that waits for this process to end, then removes its executable and the
 * folder it is in when nothing else is there: Windows does not delete the executable of a running
 * process, and uninstall is run from the installed one.
 */
function removalOnceEnded(program: string): string[] {
  const quoted = (text: string) => `'${text.replace(/['‘’‚‛]/g, '$&$&')}'`;
  const folder = path.dirname(program);
  const script = [
    "$ErrorActionPreference = 'SilentlyContinue'",
    `Wait-Process -Id ${process.pid}`,
    `foreach ($try in 1..20) { Remove-Item -LiteralPath ${quoted(program)} -Force; if (-not (Test-Path -LiteralPath ${quoted(program)})) { break }; Start-Sleep -Milliseconds 500 }`,
    `if (-not (Get-ChildItem -LiteralPath ${quoted(folder)} -Force)) { Remove-Item -LiteralPath ${quoted(folder)} -Force }`,
  ].join('\n');
  return ['-NoProfile', '-NonInteractive', '-EncodedCommand', Buffer.from(script, 'utf16le').toString('base64')];
}

function uninstallScheduledTask(layout: ServiceLayout, manager: ServiceManager, command: AgentCommand): InstallResult {
  const task = layout.serviceName;
  const taskFile = path.join(layout.unitDir, `${task}.xml`);
  const installed = installedProgram(layout, manager);
  const registered = manager.running && manager.run('schtasks', ['/Query', '/TN', task]).status === 0;
  if (registered) {
    // Not running is no failure: the task goes all the same.
    manager.run('schtasks', ['/End', '/TN', task]);
    mustRun(manager, 'schtasks', ['/Delete', '/TN', task, '/F']);
  }
  const changed = [taskFile, installed, layout.dataDir].filter((file) => fs.existsSync(file));
  const runsFromInstalled = command.single && samePath(command.program, installed, manager);
  remove(taskFile);
  remove(layout.dataDir);
  const messages: string[] = [];
  if (runsFromInstalled) {
    manager.startDetached('powershell', removalOnceEnded(installed));
    messages.push(`${installed} is removed once this command has ended.`);
  } else remove(installed);
  // The folders of the executable and of the task's definition go when nothing else is in them
  // (the executable's, when it is this process's own, goes with it).
  for (const dir of new Set([layout.binDir, layout.unitDir]))
    if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  messages.unshift(
    registered || changed.length > 0
      ? `The ${task} scheduled task and its files are removed.`
      : `The ${task} scheduled task was not installed: nothing to remove.`,
  );
  return { changed, messages };
}

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultLayout,
  installService,
  isSupervised,
  scheduledTaskFile,
  scheduledTaskXml,
  systemdUnit,
  uninstallService,
  windowsWord,
  type ServiceLayout,
  type ServiceManager,
} from './service.js';

const MAIN = path.join(import.meta.dirname, 'main.ts');
const succeeded = { status: 0, output: '' };

/** systemctl as the installer calls it, recorded: each call's command line. */
function recordingManager(): ServiceManager & { calls: string[] } {
  const calls: string[] = [];
  return {
    kind: 'systemd',
    running: true,
    calls,
    run: (program, args) => {
      calls.push([program, ...args].join(' '));
      return succeeded;
    },
    startDetached: (program) => {
      throw new Error(`${program} started on Linux`);
    },
  };
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

let root: string;
let layout: ServiceLayout;
const node = { program: '/usr/bin/node', args: ['/srv/agent/cfs-agent.cjs'], single: false };

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-agent-service-'));
  layout = {
    serviceName: 'cfs-agent',
    unitDir: path.join(root, 'etc', 'systemd', 'system'),
    binDir: path.join(root, 'opt', 'cfs-agent'),
    dataDir: path.join(root, 'var', 'lib', 'cfs-agent'),
  };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the agent as a systemd service', () => {
  it('installs its unit, settings and owner-only token, enables and starts it; the same install again changes nothing', () => {
    const manager = recordingManager();
    const first = installService({ server: 'https://portal.example' }, 'cfs_tenant_token', layout, manager, node);
    const unitFile = path.join(layout.unitDir, 'cfs-agent.service');
    expect(first.changed.sort()).toEqual(
      [unitFile, path.join(layout.dataDir, 'agent.json'), path.join(layout.dataDir, 'token')].sort(),
    );
    expect(manager.calls).toEqual([
      'systemctl daemon-reload',
      'systemctl enable --now cfs-agent',
      'systemctl restart cfs-agent',
    ]);
    const unit = fs.readFileSync(unitFile, 'utf8');
    expect(unit).toContain(`ExecStart=/usr/bin/node /srv/agent/cfs-agent.cjs run --data ${layout.dataDir}\n`);
    expect(unit).toContain('Restart=always\n');
    expect(unit).toContain('RestartPreventExitStatus=2 3\n');
    expect(unit).toContain('WantedBy=multi-user.target\n');
    // The token is in a file only its owner reads, never on the unit's command line.
    expect(unit).not.toContain('cfs_tenant_token');
    expect(fs.readFileSync(path.join(layout.dataDir, 'token'), 'utf8')).toBe('cfs_tenant_token\n');
    expect(modeOf(path.join(layout.dataDir, 'token'))).toBe(0o600);
    expect(modeOf(layout.dataDir)).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(path.join(layout.dataDir, 'agent.json'), 'utf8'))).toEqual({
      server: 'https://portal.example',
    });

    const again = recordingManager();
    const second = installService({ server: 'https://portal.example' }, 'cfs_tenant_token', layout, again, node);
    expect(second.changed).toEqual([]);
    expect(again.calls).toEqual(['systemctl daemon-reload', 'systemctl enable --now cfs-agent']);
    expect(second.messages.join('\n')).toContain('nothing changed');

    const moved = recordingManager();
    const third = installService(
      { server: 'https://portal.example', name: 'db-01' },
      'cfs_tenant_token',
      layout,
      moved,
      node,
    );
    expect(third.changed).toEqual([path.join(layout.dataDir, 'agent.json')]);
    expect(moved.calls).toEqual([
      'systemctl daemon-reload',
      'systemctl enable --now cfs-agent',
      'systemctl restart cfs-agent',
    ]);
  });

  it('copies a single executable beside the service and runs it from there; uninstall removes it all, and again finds nothing', () => {
    const executable = path.join(root, 'Downloads', 'cfs-agent-linux-x64');
    fs.mkdirSync(path.dirname(executable));
    fs.writeFileSync(executable, 'the agent');
    installService({ server: 'https://portal.example' }, 't', layout, recordingManager(), {
      program: executable,
      args: [],
      single: true,
    });
    const installed = path.join(layout.binDir, 'cfs-agent');
    expect(fs.readFileSync(installed, 'utf8')).toBe('the agent');
    expect(modeOf(installed)).toBe(0o755);
    expect(fs.readFileSync(path.join(layout.unitDir, 'cfs-agent.service'), 'utf8')).toContain(
      `ExecStart=${installed} run --data ${layout.dataDir}\n`,
    );
    // A new executable installed by the machine's owner runs: the releases taken from the portal are forgotten.
    fs.writeFileSync(path.join(layout.dataDir, 'releases.json'), '{"current":{}}');
    fs.mkdirSync(path.join(layout.dataDir, 'releases', '9.1.0'), { recursive: true });
    const same = installService({ server: 'https://portal.example' }, 't', layout, recordingManager(), {
      program: executable,
      args: [],
      single: true,
    });
    expect(same.changed).toEqual([]);
    expect(fs.existsSync(path.join(layout.dataDir, 'releases.json'))).toBe(true);
    fs.writeFileSync(executable, 'the next agent');
    const next = installService({ server: 'https://portal.example' }, 't', layout, recordingManager(), {
      program: executable,
      args: [],
      single: true,
    });
    expect(next.changed).toEqual([
      installed,
      path.join(layout.dataDir, 'releases.json'),
      path.join(layout.dataDir, 'releases'),
    ]);
    expect(fs.existsSync(path.join(layout.dataDir, 'releases'))).toBe(false);
    // The device's identity lives in the data folder: uninstall takes it too.
    fs.writeFileSync(path.join(layout.dataDir, 'identity.json'), '{}');

    const manager = recordingManager();
    const removed = uninstallService(layout, manager);
    expect(manager.calls).toEqual(['systemctl disable --now cfs-agent', 'systemctl daemon-reload']);
    expect(removed.changed).toHaveLength(3);
    for (const gone of [path.join(layout.unitDir, 'cfs-agent.service'), layout.binDir, layout.dataDir])
      expect(fs.existsSync(gone)).toBe(false);

    const again = recordingManager();
    expect(uninstallService(layout, again).messages).toEqual([
      'The cfs-agent service was not installed: nothing to remove.',
    ]);
    expect(again.calls).toEqual([]);
  });

  it('quotes a path with spaces on the unit’s command line and doubles its % signs', () => {
    const unit = systemdUnit(
      { program: '/opt/My Agent/cfs-agent', args: [] },
      { ...layout, dataDir: '/var/lib/agent 100%' },
    );
    expect(unit).toContain('ExecStart="/opt/My Agent/cfs-agent" run --data "/var/lib/agent 100%%"\n');
  });

  it('takes the token from standard input or a file on the command line, and refuses it as an argument', () => {
    const dirs = ['--data', layout.dataDir, '--unit-dir', layout.unitDir, '--bin-dir', layout.binDir];
    const cli = (args: string[], input?: string) =>
      spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, ...args], {
        input: input ?? '',
        encoding: 'utf8',
      });

    const refused = cli(['install', '--portal', 'https://portal.example', '--token', 'cfs_in_argv', ...dirs]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('The token is not taken on the command line');
    expect(fs.existsSync(layout.dataDir)).toBe(false);

    const fromStdin = cli(
      ['install', '--portal', 'https://portal.example', '--files-only', ...dirs],
      'cfs_from_stdin\n',
    );
    expect(fromStdin.stderr).toBe('');
    expect(fromStdin.status).toBe(0);
    expect(fromStdin.stdout).toContain('systemctl daemon-reload && systemctl enable --now cfs-agent');
    expect(fs.readFileSync(path.join(layout.dataDir, 'token'), 'utf8')).toBe('cfs_from_stdin\n');
    // The unit runs this very agent (here Node with the agent's sources) from its data folder.
    expect(fs.readFileSync(path.join(layout.unitDir, 'cfs-agent.service'), 'utf8')).toContain(
      `${MAIN} run --data ${layout.dataDir}\n`,
    );

    const tokenFile = path.join(root, 'token.txt');
    fs.writeFileSync(tokenFile, 'cfs_from_file\n');
    const fromFile = cli([
      'install',
      '--portal',
      'https://portal.example',
      '--token-file',
      tokenFile,
      '--files-only',
      ...dirs,
    ]);
    expect(fromFile.status).toBe(0);
    expect(fs.readFileSync(path.join(layout.dataDir, 'token'), 'utf8')).toBe('cfs_from_file\n');

    const none = cli(['install', '--portal', 'https://portal.example', '--files-only', ...dirs], '');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('The token file must hold the token alone, on one line.');

    const gone = cli(['uninstall', '--files-only', ...dirs]);
    expect(gone.status).toBe(0);
    expect(fs.existsSync(layout.dataDir)).toBe(false);
    expect(fs.existsSync(path.join(layout.unitDir, 'cfs-agent.service'))).toBe(false);
    // It starts the agent's command line from its sources several times: seconds on a busy machine.
  }, 30_000);

  it('says to run it as root when it may not write where the service goes', () => {
    // A folder it may not write in: read-only for its owner, and another user's when run as root
    // (root may write anywhere, so the command runs as nobody then).
    fs.chmodSync(root, 0o500);
    const asRoot = process.getuid?.() === 0;
    const refused = spawnSync(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        MAIN,
        'install',
        '--portal',
        'https://portal.example',
        '--files-only',
        '--data',
        layout.dataDir,
        '--unit-dir',
        layout.unitDir,
        '--bin-dir',
        layout.binDir,
      ],
      { input: 'cfs_token\n', encoding: 'utf8', ...(asRoot ? { uid: 65534, gid: 65534 } : {}) },
    );
    fs.chmodSync(root, 0o700);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('EACCES');
    expect(refused.stderr).toContain('run cfs-agent install and uninstall as root (sudo).');
  });
});

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text of an XML document with its entities undone; a `&` that starts none is malformed. */
function unescapeXml(text: string): string {
  return text.replace(/&(\w+);|&/g, (whole, name?: string) => {
    const character = name === undefined ? undefined : ENTITIES[name];
    if (character === undefined) throw new Error(`Not an entity: ${whole} in ${text}`);
    return character;
  });
}

/** Just enough of an XML reader for the task's document: elements, attributes and text; anything malformed throws. */
function parseXml(xml: string): XmlElement {
  const document: XmlElement = { name: '', attributes: {}, children: [], text: '' };
  const open = [document];
  for (const [, tag, text] of xml.replace(/^<\?xml [^>]*\?>/, '').matchAll(/(<[^>]*>)|([^<]+)/g)) {
    const parent = open.at(-1)!;
    if (text !== undefined) {
      if (text.includes('>')) throw new Error(`A bare > in ${text}`);
      parent.text += unescapeXml(text);
      continue;
    }
    const closing = /^<\/(\w+)>$/.exec(tag!);
    if (closing) {
      if (open.pop()?.name !== closing[1] || open.length === 0) throw new Error(`Unexpected ${tag}`);
      continue;
    }
    const opening = /^<(\w+)((?:\s+[\w:]+="[^"]*")*)\s*(\/?)>$/.exec(tag!);
    if (!opening) throw new Error(`Not a tag: ${tag}`);
    const element: XmlElement = {
      name: opening[1]!,
      attributes: Object.fromEntries(
        [...opening[2]!.matchAll(/([\w:]+)="([^"]*)"/g)].map(([, key, value]) => [key!, unescapeXml(value!)]),
      ),
      children: [],
      text: '',
    };
    parent.children.push(element);
    if (!opening[3]) open.push(element);
  }
  if (open.length !== 1 || document.children.length !== 1) throw new Error('The document is not one closed element');
  return document.children[0]!;
}

/** The one element at `where` (names separated by /) under `element`. */
function at(element: XmlElement, where: string): XmlElement {
  return where.split('/').reduce((found, name) => {
    const matching = found.children.filter((child) => child.name === name);
    if (matching.length !== 1) throw new Error(`${matching.length} <${name}> in <${found.name}>`);
    return matching[0]!;
  }, element);
}

/** A task file as `schtasks /XML` reads it: UTF-16 LE after its byte order mark, declared so. */
function readTaskFile(bytes: Buffer): XmlElement {
  expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
  const xml = bytes.subarray(2).toString('utf16le');
  expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-16"\?>\r\n/);
  return parseXml(xml);
}

/** A Windows command line split into its words as the C runtime does (a program's argv). */
function windowsArgv(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const character = line[i]!;
    if (character === '\\') {
      let backslashes = 0;
      while (line[i] === '\\') {
        backslashes++;
        i++;
      }
      if (line[i] === '"') {
        word += '\\'.repeat(Math.floor(backslashes / 2));
        if (backslashes % 2 === 1) word += '"';
        else quoted = !quoted;
      } else {
        word += '\\'.repeat(backslashes);
        i--;
      }
      inWord = true;
    } else if (character === '"') {
      quoted = !quoted;
      inWord = true;
    } else if ((character === ' ' || character === '\t') && !quoted) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += character;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The command a task file's action runs: its program, and its arguments split as the program sees them. */
function taskCommand(task: XmlElement): { program: string; args: string[] } {
  return {
    program: at(task, 'Actions/Exec/Command').text,
    args: windowsArgv(at(task, 'Actions/Exec/Arguments').text),
  };
}

/**
 * The Task Scheduler and icacls as the installer calls them, recorded: each command line, and the
 * tasks registered (what /Query answers). `observe` sees each call as it is made.
 */
function recordingTaskScheduler(observe: (call: string) => void = () => undefined) {
  const calls: string[] = [];
  const detached: string[][] = [];
  const registered = new Set<string>();
  const manager: ServiceManager = {
    kind: 'task-scheduler',
    running: true,
    run: (program, args) => {
      const call = [program, ...args].join(' ');
      calls.push(call);
      observe(call);
      if (program !== 'schtasks') return succeeded;
      const [verb, , task = ''] = args;
      if (verb === '/Query') return { status: registered.has(task) ? 0 : 1, output: '' };
      if (verb === '/Create') registered.add(task);
      if (verb === '/Delete') registered.delete(task);
      if ((verb === '/Run' || verb === '/End') && !registered.has(task)) return { status: 1, output: 'no such task' };
      return succeeded;
    },
    startDetached: (program, args) => void detached.push([program, ...args]),
  };
  return { manager, calls, detached, registered };
}

describe('the agent as a Windows scheduled task', () => {
  const RIGHTS = '/inheritance:r /grant:r *S-1-5-18:(OI)(CI)F *S-1-5-32-544:(OI)(CI)F';
  let windows: ServiceLayout;
  let downloaded: string;
  let installed: string;
  let taskFile: string;
  const fromDownload = () => ({ program: downloaded, args: [], single: true });

  beforeEach(() => {
    const programs = path.join(root, 'Program Files', 'CFS Agent');
    windows = {
      serviceName: 'CFS Agent',
      unitDir: programs,
      binDir: programs,
      dataDir: path.join(root, 'ProgramData', 'CFS Agent'),
    };
    downloaded = path.join(root, 'Downloads', 'cfs-agent-win-x64.exe');
    fs.mkdirSync(path.dirname(downloaded));
    fs.writeFileSync(downloaded, 'the agent');
    installed = path.join(programs, 'cfs-agent.exe');
    taskFile = path.join(programs, 'CFS Agent.xml');
  });

  it('lays out the executable under Program Files and the data under ProgramData, as this machine names them', () => {
    expect(defaultLayout('win32', { ProgramFiles: 'D:\\Programs', ProgramData: 'D:\\Data' })).toEqual({
      serviceName: 'CFS Agent',
      unitDir: 'D:\\Programs\\CFS Agent',
      binDir: 'D:\\Programs\\CFS Agent',
      dataDir: 'D:\\Data\\CFS Agent',
    });
    expect(defaultLayout('linux', { ProgramFiles: 'D:\\Programs' }).binDir).toBe('/opt/cfs-agent');
  });

  it('defines a task started at boot as SYSTEM, without time limit, restarted after a failure, that runs the agent supervised', () => {
    const task = readTaskFile(
      scheduledTaskFile(
        scheduledTaskXml(
          { program: 'C:\\Program Files\\CFS Agent\\cfs-agent.exe', args: [] },
          { ...windows, dataDir: 'C:\\ProgramData\\R&D "Agent"\\' },
        ),
      ),
    );
    expect(task.name).toBe('Task');
    expect(task.attributes).toEqual({ version: '1.2', xmlns: 'http://schemas.microsoft.com/windows/2004/02/mit/task' });
    expect(at(task, 'Triggers/BootTrigger/Enabled').text).toBe('true');
    expect(at(task, 'Principals/Principal/UserId').text).toBe('S-1-5-18');
    expect(at(task, 'Principals/Principal/RunLevel').text).toBe('HighestAvailable');
    expect(at(task, 'Actions').attributes.Context).toBe(at(task, 'Principals/Principal').attributes.id);
    expect(at(task, 'Settings/ExecutionTimeLimit').text).toBe('PT0S');
    expect(at(task, 'Settings/MultipleInstancesPolicy').text).toBe('IgnoreNew');
    expect(at(task, 'Settings/RestartOnFailure/Interval').text).toBe('PT1M');
    expect(Number(at(task, 'Settings/RestartOnFailure/Count').text)).toBe(255);
    expect(at(task, 'Settings/DisallowStartIfOnBatteries').text).toBe('false');
    expect(at(task, 'Settings/StopIfGoingOnBatteries').text).toBe('false');
    // The data folder's space, &, quotes and final backslash reach the agent as they are.
    expect(taskCommand(task)).toEqual({
      program: 'C:\\Program Files\\CFS Agent\\cfs-agent.exe',
      args: ['run', '--data', 'C:\\ProgramData\\R&D "Agent"\\', '--supervised'],
    });
  });

  it('quotes each word of a Windows command line so that the program gets it back as it was', () => {
    const words = [
      'plain',
      '',
      'two words',
      'tab\there',
      'C:\\dir\\',
      'C:\\my dir\\',
      'say "hi"',
      'a\\"b',
      'x\\\\"',
      '\\\\',
    ];
    expect(windowsArgv(words.map(windowsWord).join(' '))).toEqual(words);
    expect(windowsWord('C:\\ProgramData\\CFS Agent')).toBe('"C:\\ProgramData\\CFS Agent"');
  });

  it('runs the command line of its task: the agent takes --supervised, which alone makes it end for a restart', () => {
    const task = readTaskFile(
      scheduledTaskFile(
        scheduledTaskXml(
          { program: process.execPath, args: ['--conditions=source', '--import', 'tsx', MAIN] },
          windows,
        ),
      ),
    );
    const { program, args } = taskCommand(task);
    expect(args.slice(-4)).toEqual(['run', '--data', windows.dataDir, '--supervised']);
    const help = spawnSync(program, [...args, '--help'], { encoding: 'utf8' });
    expect(help.stderr).toBe('');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--supervised');
    // Neither INVOCATION_ID nor a channel to a parent under the Task Scheduler: the flag says it.
    expect(isSupervised(false, {}, false)).toBe(false);
    expect(isSupervised(true, {}, false)).toBe(true);
    expect(isSupervised(false, { INVOCATION_ID: '1' }, false)).toBe(true);
    // The systemd unit does not carry it: INVOCATION_ID says as much there.
    expect(systemdUnit({ program: '/opt/cfs-agent/cfs-agent', args: [] }, layout)).not.toContain('--supervised');
  });

  it('installs the executable, the task and a closed data folder; again changes nothing; new settings re-register and restart it', () => {
    let tokenAtRights: boolean | undefined;
    const scheduler = recordingTaskScheduler((call) => {
      if (call.startsWith('icacls')) tokenAtRights ??= fs.existsSync(path.join(windows.dataDir, 'token'));
    });
    const settings = { server: 'https://portal.example' };
    const first = installService(settings, 'cfs_tenant_token', windows, scheduler.manager, fromDownload());
    expect(scheduler.calls).toEqual([
      'schtasks /Query /TN CFS Agent',
      `icacls ${windows.dataDir} ${RIGHTS}`,
      `schtasks /Create /TN CFS Agent /XML ${taskFile} /F`,
      'schtasks /Run /TN CFS Agent',
    ]);
    // Other users lose their access to the folder before the token is in it.
    expect(tokenAtRights).toBe(false);
    expect(first.changed.sort()).toEqual(
      [installed, taskFile, path.join(windows.dataDir, 'token'), path.join(windows.dataDir, 'agent.json')].sort(),
    );
    expect(first.messages).toEqual(['The CFS Agent scheduled task is installed and running.']);
    expect(fs.readFileSync(installed, 'utf8')).toBe('the agent');
    expect(fs.readFileSync(path.join(windows.dataDir, 'token'), 'utf8')).toBe('cfs_tenant_token\n');
    const task = readTaskFile(fs.readFileSync(taskFile));
    expect(taskCommand(task)).toEqual({ program: installed, args: ['run', '--data', windows.dataDir, '--supervised'] });
    expect(JSON.stringify(task)).not.toContain('cfs_tenant_token');

    scheduler.calls.length = 0;
    const second = installService(settings, 'cfs_tenant_token', windows, scheduler.manager, fromDownload());
    expect(second.changed).toEqual([]);
    expect(second.messages).toEqual(['The CFS Agent scheduled task was installed as asked already: nothing changed.']);
    // Its rights set again, and started if it had stopped (a task that runs is not started twice).
    expect(scheduler.calls).toEqual([
      'schtasks /Query /TN CFS Agent',
      `icacls ${windows.dataDir} ${RIGHTS}`,
      'schtasks /Run /TN CFS Agent',
    ]);

    scheduler.calls.length = 0;
    const renamed = installService(
      { ...settings, name: 'db-01' },
      'cfs_tenant_token',
      windows,
      scheduler.manager,
      fromDownload(),
    );
    expect(renamed.changed).toEqual([path.join(windows.dataDir, 'agent.json')]);
    expect(scheduler.calls).toEqual([
      'schtasks /Query /TN CFS Agent',
      `icacls ${windows.dataDir} ${RIGHTS}`,
      `schtasks /Create /TN CFS Agent /XML ${taskFile} /F`,
      'schtasks /End /TN CFS Agent',
      'schtasks /Run /TN CFS Agent',
    ]);

    // A new executable: the running agent ends before its file is replaced (Windows keeps it locked).
    fs.writeFileSync(downloaded, 'the agent, version 2');
    let installedAtEnd: string | undefined;
    const updating = recordingTaskScheduler((call) => {
      if (call.startsWith('schtasks /End')) installedAtEnd = fs.readFileSync(installed, 'utf8');
    });
    updating.registered.add('CFS Agent');
    const updated = installService(
      { ...settings, name: 'db-01' },
      'cfs_tenant_token',
      windows,
      updating.manager,
      fromDownload(),
    );
    expect(updated.changed).toEqual([installed]);
    expect(installedAtEnd).toBe('the agent');
    expect(fs.readFileSync(installed, 'utf8')).toBe('the agent, version 2');
    expect(updating.calls).toEqual([
      'schtasks /Query /TN CFS Agent',
      'schtasks /End /TN CFS Agent',
      `icacls ${windows.dataDir} ${RIGHTS}`,
      `schtasks /Create /TN CFS Agent /XML ${taskFile} /F`,
      'schtasks /Run /TN CFS Agent',
    ]);

    // A task deleted by hand is registered again, though no file changed.
    const deleted = recordingTaskScheduler();
    const again = installService(
      { ...settings, name: 'db-01' },
      'cfs_tenant_token',
      windows,
      deleted.manager,
      fromDownload(),
    );
    expect(again.changed).toEqual([]);
    expect(deleted.calls).toEqual([
      'schtasks /Query /TN CFS Agent',
      `icacls ${windows.dataDir} ${RIGHTS}`,
      `schtasks /Create /TN CFS Agent /XML ${taskFile} /F`,
      'schtasks /Run /TN CFS Agent',
    ]);
  });

  it('with --files-only, writes the files and closes the data folder, and prints the schtasks commands instead of running them', () => {
    const scheduler = recordingTaskScheduler();
    const result = installService(
      { server: 'https://portal.example' },
      't',
      windows,
      { ...scheduler.manager, running: false },
      fromDownload(),
    );
    expect(scheduler.calls).toEqual([`icacls ${windows.dataDir} ${RIGHTS}`]);
    expect(fs.existsSync(taskFile)).toBe(true);
    expect(result.messages.slice(1)).toEqual([
      `  schtasks /Create /TN "CFS Agent" /XML "${taskFile}" /F`,
      '  schtasks /Run /TN "CFS Agent"',
    ]);
  });

  it('uninstall ends and deletes the task and removes its files; again it finds nothing', () => {
    const scheduler = recordingTaskScheduler();
    installService({ server: 'https://portal.example' }, 't', windows, scheduler.manager, fromDownload());
    // The device's identity lives in the data folder: uninstall takes it too.
    fs.writeFileSync(path.join(windows.dataDir, 'identity.json'), '{}');

    scheduler.calls.length = 0;
    const removed = uninstallService(windows, scheduler.manager, fromDownload());
    expect(scheduler.calls).toEqual([
      'schtasks /Query /TN CFS Agent',
      'schtasks /End /TN CFS Agent',
      'schtasks /Delete /TN CFS Agent /F',
    ]);
    expect(scheduler.registered.size).toBe(0);
    expect(removed.changed.sort()).toEqual([taskFile, installed, windows.dataDir].sort());
    expect(removed.messages).toEqual(['The CFS Agent scheduled task and its files are removed.']);
    for (const gone of [windows.binDir, windows.dataDir]) expect(fs.existsSync(gone)).toBe(false);
    expect(scheduler.detached).toEqual([]);

    scheduler.calls.length = 0;
    const again = uninstallService(windows, scheduler.manager, fromDownload());
    expect(again.changed).toEqual([]);
    expect(again.messages).toEqual(['The CFS Agent scheduled task was not installed: nothing to remove.']);
    expect(scheduler.calls).toEqual(['schtasks /Query /TN CFS Agent']);
  });

  it('uninstall run from the installed executable leaves its removal to a command that waits for it to end', () => {
    const scheduler = recordingTaskScheduler();
    installService({ server: 'https://portal.example' }, 't', windows, scheduler.manager, fromDownload());
    const removed = uninstallService(windows, scheduler.manager, { program: installed, args: [], single: true });
    expect(scheduler.registered.size).toBe(0);
    expect(fs.existsSync(windows.dataDir)).toBe(false);
    expect(fs.existsSync(taskFile)).toBe(false);
    // Windows does not delete the executable of a running process: it is still there, alone.
    expect(fs.readdirSync(windows.binDir)).toEqual(['cfs-agent.exe']);
    expect(removed.messages).toEqual([
      'The CFS Agent scheduled task and its files are removed.',
      `${installed} is removed once this command has ended.`,
    ]);
    expect(scheduler.detached).toHaveLength(1);
    const [program, ...args] = scheduler.detached[0]!;
    expect(program).toBe('powershell');
    expect(args.slice(0, -1)).toEqual(['-NoProfile', '-NonInteractive', '-EncodedCommand']);
    const script = Buffer.from(args.at(-1)!, 'base64').toString('utf16le');
    expect(script).toContain(`Wait-Process -Id ${process.pid}\n`);
    expect(script).toContain(`Remove-Item -LiteralPath '${installed}' -Force`);
    expect(script).toContain(`Remove-Item -LiteralPath '${windows.binDir}' -Force`);
  });
});

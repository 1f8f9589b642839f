import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installService, systemdUnit, uninstallService, type ServiceLayout, type ServiceManager } from './service.js';

const MAIN = path.join(import.meta.dirname, 'main.ts');

/** systemctl as the installer calls it, recorded: each call's arguments. */
function recordingManager(): ServiceManager & { calls: string[] } {
  const calls: string[] = [];
  return { running: true, calls, run: (args) => void calls.push(args.join(' ')) };
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
    expect(manager.calls).toEqual(['daemon-reload', 'enable --now cfs-agent', 'restart cfs-agent']);
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
    expect(again.calls).toEqual(['daemon-reload', 'enable --now cfs-agent']);
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
    expect(moved.calls).toEqual(['daemon-reload', 'enable --now cfs-agent', 'restart cfs-agent']);
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
    // The device's identity lives in the data folder: uninstall takes it too.
    fs.writeFileSync(path.join(layout.dataDir, 'identity.json'), '{}');

    const manager = recordingManager();
    const removed = uninstallService(layout, manager);
    expect(manager.calls).toEqual(['disable --now cfs-agent', 'daemon-reload']);
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
  });

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

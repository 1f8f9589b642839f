import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scriptSigningText, type AgentScript } from '@cfs/contracts/agent';
import { DataFolder } from './data-folder.js';
import type { InstalledPackages } from './installer.js';
import { runScript, scriptPolicy } from './scripts.js';

/** The portal's key pair: the agent holds the public half, the portal signs with the private one. */
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PINNED = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const PACKAGE_ID = '0b7f9c2e-4a1d-4c3b-9e8f-1a2b3c4d5e6f';
const VERSION_ID = '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f';

let dir: string;
let folder: DataFolder;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-scripts-'));
  folder = new DataFolder(dir);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A script file installed as the installer leaves it: packages/<package folder>/<version>/<file>. */
function install(packageFolder: string, content: string): { installed: InstalledPackages; sha256: string } {
  const file = path.join(dir, 'packages', packageFolder, '1.0.0', 'check.sh');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  const sha256 = createHash('sha256').update(content).digest('hex');
  return {
    installed: { [PACKAGE_ID]: { packageVersionId: VERSION_ID, version: '1.0.0', path: file, sha256 } },
    sha256,
  };
}

/** The script as the portal sends it, signed for `signedAs` and labelled `packageName`. */
function scriptOf(sha256: string, packageName: string, signedAs = packageName): AgentScript {
  const script = { packageId: PACKAGE_ID, packageName, packageVersionId: VERSION_ID, fileName: 'check.sh', sha256 };
  const signature = sign(null, Buffer.from(scriptSigningText({ ...script, packageName: signedAs })), privateKey);
  return { ...script, signature: signature.toString('base64') };
}

const context = (installed: InstalledPackages) => ({
  folder,
  policy: scriptPolicy('Maintenance scripts'),
  key: PINNED,
  installed,
  platform: 'linux' as const,
});

describe('running a script on the device', () => {
  it('runs a signed script of an allowed package, in a folder of its own, without the agent token', async () => {
    const previous = process.env.CFS_AGENT_TOKEN;
    process.env.CFS_AGENT_TOKEN = 'cfs_secret_token';
    try {
      const { installed, sha256 } = install('Maintenance_scripts', 'pwd\nprintf "[%s]" "$CFS_AGENT_TOKEN"\nexit 4\n');
      const run = await runScript(scriptOf(sha256, 'Maintenance scripts'), new Map(), context(installed));
      expect(run).toMatchObject({ exitCode: 4, refused: null, sha256, timedOut: false });
      const [workDir, token] = run.stdout.split('\n');
      expect(path.dirname(workDir ?? '')).toBe(fs.realpathSync(dir));
      expect(token).toBe('[]');
      // Its folder is gone afterwards.
      expect(fs.readdirSync(dir).filter((name) => name.startsWith('script-'))).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.CFS_AGENT_TOKEN;
      else process.env.CFS_AGENT_TOKEN = previous;
    }
  });

  it('refuses a script signed for another package but labelled as an allowed one', async () => {
    const { installed, sha256 } = install('Maintenance_scripts', 'echo ran\n');
    const run = await runScript(
      scriptOf(sha256, 'Maintenance scripts', 'Other scripts'),
      new Map(),
      context(installed),
    );
    expect(run.refused).toContain('signature does not hold');
    expect(run.stdout).toBe('');
  });

  it('refuses a file installed for another package, whatever the label says', async () => {
    const { installed, sha256 } = install('Other_scripts', 'echo ran\n');
    const run = await runScript(scriptOf(sha256, 'Maintenance scripts'), new Map(), context(installed));
    expect(run.refused).toContain('is not the one installed here');
    expect(run.stdout).toBe('');
  });

  it('refuses a shell script on Windows and a PowerShell script on Linux', async () => {
    const { installed, sha256 } = install('Maintenance_scripts', 'echo ran\n');
    const run = await runScript(scriptOf(sha256, 'Maintenance scripts'), new Map(), {
      ...context(installed),
      platform: 'win32',
    });
    expect(run.refused).toContain('PowerShell scripts (.ps1) on Windows');
  });
});

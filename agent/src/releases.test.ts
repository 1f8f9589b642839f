import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentReleaseSigningText, type AgentRelease } from '@cfs/contracts/agent';
import { DataFolder } from './data-folder.js';
import {
  chooseRelease,
  confirmTrial,
  readReleases,
  recentlyGivenUp,
  releaseFile,
  stageRelease,
  TRIAL_STARTS,
  writeReleases,
  type StagedRelease,
} from './releases.js';
import { SCRIPT_KEY_FILE } from './scripts.js';
import { AGENT_VERSION } from './version.js';

/*
 * The agent's checks of a release, on real files and keys: what it takes (the published SHA-256,
 * the portal's signature under the pinned key, a start that tells the offered version), what the
 * installed program runs at its start (the trial, counted; the current release; its own agent),
 * and when it gives a trial up.
 */

const portal = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');
const pem = (key: typeof portal.publicKey) => key.export({ type: 'spki', format: 'pem' }).toString();
const VERSION_ID = '3d1e2f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6';
/** The agent's own program from its sources: what a release's start is checked with. */
const AGENT = [
  process.execPath,
  '--conditions=source',
  '--import',
  'tsx',
  path.resolve(import.meta.dirname, 'main.ts'),
] as [string, ...string[]];

let dir: string;
let folder: DataFolder;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-releases-'));
  folder = new DataFolder(dir);
  folder.writeJson(SCRIPT_KEY_FILE, { publicKey: pem(portal.publicKey) }, true);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A release's bundle: here a small program that answers `version` as an agent does. */
const bundle = (version: string) => `if (process.argv.includes('version')) console.log(${JSON.stringify(version)});\n`;

function offerOf(content: string, version: string, key = portal.privateKey): AgentRelease {
  const release = {
    packageVersionId: VERSION_ID,
    version,
    sha256: createHash('sha256').update(content).digest('hex'),
  };
  return {
    ...release,
    size: content.length,
    downloadUrl: 'https://portal.example/download',
    rollbackMinutes: 10,
    signature: sign(null, Buffer.from(agentReleaseSigningText(release)), key).toString('base64'),
  };
}

const stage = (content: string, offer: AgentRelease, now?: Date) =>
  stageRelease(folder, offer, async (destination) => fs.promises.writeFile(destination, content), {
    command: AGENT,
    ...(now ? { now } : {}),
  });

describe('taking a release', () => {
  it('puts a release on trial when its hash, its signature and its start hold', async () => {
    const content = bundle('9.1.0');
    const staged = await stage(content, offerOf(content, '9.1.0'));
    expect(staged.file).toBe(releaseFile(folder, '9.1.0'));
    expect(readReleases(folder).trial).toMatchObject({ version: '9.1.0', starts: 0, from: AGENT_VERSION });
    expect(fs.statSync(path.join(dir, 'releases.json')).mode & 0o777).toBe(0o600);
  }, 30_000);

  it('refuses a file that is not the one published, one signed under another key, and one that tells another version', async () => {
    const content = bundle('9.1.0');
    await expect(stage(`${content}// changed\n`, offerOf(content, '9.1.0'))).rejects.toThrow(/SHA-256/);
    await expect(stage(content, offerOf(content, '9.1.0', stranger.privateKey))).rejects.toThrow(
      /signature does not hold/,
    );
    await expect(stage(bundle('9.2.0'), offerOf(bundle('9.2.0'), '9.1.0'))).rejects.toThrow(/it is 9.2.0/);
    const crashing = 'process.exit(4);\n';
    await expect(stage(crashing, offerOf(crashing, '9.1.0'))).rejects.toThrow(/did not start \(exit code 4\)/);
    expect(readReleases(folder).trial).toBeUndefined();
    expect(fs.existsSync(`${releaseFile(folder, '9.1.0')}.part`)).toBe(false);
  }, 60_000);
});

describe('what the installed program runs', () => {
  async function onTrial(now = new Date()): Promise<StagedRelease> {
    const content = bundle('9.1.0');
    return stage(content, offerOf(content, '9.1.0'), now);
  }

  it('runs its own agent when it took no release', async () => {
    expect(await chooseRelease(folder)).toEqual({ kind: 'own' });
  });

  it('runs the trial, counting its starts, and gives it up after three: the portal hears it went back', async () => {
    const staged = await onTrial();
    for (let start = 1; start <= TRIAL_STARTS; start += 1) {
      const choice = await chooseRelease(folder);
      expect(choice).toMatchObject({ kind: 'release', release: { version: '9.1.0' } });
      expect(readReleases(folder).trial?.starts).toBe(start);
    }
    expect(await chooseRelease(folder)).toEqual({ kind: 'own' });
    const state = readReleases(folder);
    expect(state.trial).toBeUndefined();
    expect(state.outcome).toMatchObject({ packageVersionId: VERSION_ID, outcome: 'RolledBack' });
    expect(state.outcome?.detail).toContain(`Went back to ${AGENT_VERSION}: it ended 3 times`);
    expect(recentlyGivenUp(folder, VERSION_ID)).toBe(true);
    expect(recentlyGivenUp(folder, VERSION_ID, new Date(Date.now() + 2 * 3600_000))).toBe(false);
    expect(fs.existsSync(staged.file)).toBe(false);
  }, 30_000);

  it('gives up a trial that has not reported by its deadline', async () => {
    await onTrial(new Date(Date.now() - 11 * 60_000));
    expect(await chooseRelease(folder)).toEqual({ kind: 'own' });
    expect(readReleases(folder).outcome?.detail).toContain('did not report to the portal within the rollback minutes');
  }, 30_000);

  it('runs a confirmed release at each start, and not once its file has changed', async () => {
    await onTrial();
    confirmTrial(folder);
    const state = readReleases(folder);
    expect(state.trial).toBeUndefined();
    expect(state.current?.version).toBe('9.1.0');
    expect(await chooseRelease(folder)).toMatchObject({ kind: 'release', release: { version: '9.1.0' } });
    expect(await chooseRelease(folder)).not.toHaveProperty('trialUntil');
    fs.appendFileSync(state.current!.file, '// tampered\n');
    const log: string[] = [];
    expect(await chooseRelease(folder, new Date(), (line) => log.push(line))).toEqual({ kind: 'own' });
    expect(log.join('\n')).toContain('has changed since it was taken');
    expect(readReleases(folder).current).toBeUndefined();
  }, 30_000);

  it('does not run a release whose signature no longer holds under the pinned key', async () => {
    await onTrial();
    confirmTrial(folder);
    const state = readReleases(folder);
    writeReleases(folder, { current: { ...state.current!, version: '9.9.9' } });
    expect(await chooseRelease(folder)).toEqual({ kind: 'own' });
  }, 30_000);
});

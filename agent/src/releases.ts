import { spawn } from 'node:child_process';
import { verify } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { agentReleaseSigningText, type AgentRelease } from '@cfs/contracts/agent';
import type { DataFolder } from './data-folder.js';
import { sha256Of, safeName } from './installer.js';
import { SCRIPT_KEY_FILE } from './scripts.js';
import { AGENT_VERSION } from './version.js';

/**
 * The agent's self-update, on the machine (docs/features/device-agent.md "Updates"). The portal
 * offers a version of the agent package (a bundle of the agent); the running agent downloads it to
 * `releases/<version>/` in its data folder and takes it only when its SHA-256 is the published one,
 * the portal's signature holds under the key this agent pinned, and the new version starts and
 * tells that version (`version`). Then it ends for a restart; its service manager starts the
 * installed program, which runs the new version in its own process (`chooseRelease`): on trial
 * until it has reported to the portal. A trial that ends three times, or has not reported within
 * the rollback minutes, is given up: the program runs the version before it again, and the portal
 * hears that it went back. The installed program's own code decides all this, so a broken release
 * cannot keep itself running.
 */

export const RELEASES_FILE = 'releases.json';
/** How many times a trial may start without reporting before the agent goes back. */
export const TRIAL_STARTS = 3;
/** How long a version this machine went back from is not taken again, whatever the portal offers. */
export const GIVEN_UP_FOR_MS = 60 * 60_000;

export interface StagedRelease {
  packageVersionId: string;
  version: string;
  file: string;
  sha256: string;
  signature: string;
}

export interface ReleaseState {
  /** The release this machine runs instead of the installed program's own agent (it reported). */
  current?: StagedRelease;
  /** The release on trial: started `starts` times, to report before `deadline`; `from` is the version it replaced. */
  trial?: StagedRelease & { deadline: string; starts: number; from: string };
  /** What the portal is to hear at the next session: an update done, gone back from or refused. */
  outcome?: { packageVersionId: string; outcome: 'Updated' | 'RolledBack' | 'Refused'; detail?: string };
  /** When this machine went back from each version (by package version id). */
  givenUp?: Record<string, string>;
}

/** Whether this machine went back from the version within GIVEN_UP_FOR_MS: an offer made before the portal heard it is not taken. */
export function recentlyGivenUp(folder: DataFolder, packageVersionId: string, now = new Date()): boolean {
  const at = readReleases(folder).givenUp?.[packageVersionId];
  return at !== undefined && now.getTime() - Date.parse(at) < GIVEN_UP_FOR_MS;
}

export const readReleases = (folder: DataFolder): ReleaseState => folder.readJson<ReleaseState>(RELEASES_FILE) ?? {};
export const writeReleases = (folder: DataFolder, state: ReleaseState): void =>
  folder.writeJson(RELEASES_FILE, state, true);

/** Why a staged release may not run, or nothing when it may: its file as it was taken, signed by the pinned key. */
export async function releaseRefusal(release: StagedRelease, key: string | undefined): Promise<string | undefined> {
  if (!key) return 'no portal key is pinned on this machine';
  let signed: boolean;
  try {
    signed = verify(null, Buffer.from(agentReleaseSigningText(release)), key, Buffer.from(release.signature, 'base64'));
  } catch {
    signed = false;
  }
  if (!signed) return 'the portal’s signature does not hold under the key this agent pinned';
  const actual = await sha256Of(release.file).catch(() => undefined);
  if (actual === undefined) return `${release.file} is missing`;
  if (actual !== release.sha256.toLowerCase())
    return `${release.file} has changed since it was taken (SHA-256 ${actual})`;
  return undefined;
}

export const pinnedKey = (folder: DataFolder): string | undefined =>
  folder.readJson<{ publicKey: string }>(SCRIPT_KEY_FILE)?.publicKey;

export type ReleaseChoice = { kind: 'own' } | { kind: 'release'; release: StagedRelease; trialUntil?: Date };

/**
 * What the program runs at its start: the release on trial (one more start counted), the current
 * release, or its own agent. A trial past its starts or its deadline is given up here, and a
 * release whose file or signature no longer holds is not run.
 */
export async function chooseRelease(
  folder: DataFolder,
  now = new Date(),
  log: (line: string) => void = () => undefined,
): Promise<ReleaseChoice> {
  const state = readReleases(folder);
  const key = pinnedKey(folder);
  if (state.trial) {
    const trial = state.trial;
    const gaveUp =
      trial.starts >= TRIAL_STARTS
        ? `it ended ${trial.starts} times before it reported to the portal`
        : now.getTime() > Date.parse(trial.deadline)
          ? 'it did not report to the portal within the rollback minutes'
          : await releaseRefusal(trial, key);
    const { trial: _given, ...rest } = state;
    if (gaveUp) {
      log(`The agent ${trial.version} is given up (${gaveUp}): going back to ${trial.from}`);
      writeReleases(folder, {
        ...rest,
        outcome: {
          packageVersionId: trial.packageVersionId,
          outcome: 'RolledBack',
          detail: `Went back to ${trial.from}: ${gaveUp}.`,
        },
        givenUp: { ...state.givenUp, [trial.packageVersionId]: now.toISOString() },
      });
      fs.rmSync(path.dirname(trial.file), { recursive: true, force: true });
      return chooseRelease(folder, now, log);
    }
    writeReleases(folder, { ...state, trial: { ...trial, starts: trial.starts + 1 } });
    return { kind: 'release', release: trial, trialUntil: new Date(trial.deadline) };
  }
  if (state.current && state.current.version !== AGENT_VERSION) {
    const refused = await releaseRefusal(state.current, key);
    if (!refused) return { kind: 'release', release: state.current };
    log(`The agent ${state.current.version} is not run (${refused}): running the installed ${AGENT_VERSION}`);
    const { current: _dropped, ...rest } = state;
    writeReleases(folder, rest);
  }
  return { kind: 'own' };
}

const LAUNCHED = Symbol.for('cfs-agent.launched-release');
type Launched = { [LAUNCHED]?: string };

/** The release file this process was started into by the installed program, if any. */
export function launchedRelease(): string | undefined {
  return (globalThis as Launched)[LAUNCHED];
}

/**
 * Runs a release's bundle in this process: its own command line runs as the installed program's
 * would (it sees the same arguments), and it knows it was launched, so it does not choose again.
 */
export function runRelease(file: string): void {
  (globalThis as Launched)[LAUNCHED] = file;
  createRequire(path.resolve(file))(path.resolve(file));
}

/**
 * A trial that has not reported by its deadline ends the process (for a restart, exit code
 * `restartCode`), and the program then goes back. Checked by the installed program's code, so a
 * release that keeps running but never reaches the portal is given up too.
 */
export function watchTrial(folder: DataFolder, until: Date, restartCode: number, log: (line: string) => void): void {
  setTimeout(
    () => {
      const trial = readReleases(folder).trial;
      if (!trial || Date.parse(trial.deadline) !== until.getTime()) return;
      log(`The agent ${trial.version} has not reported to the portal by ${until.toISOString()}: ending for a restart`);
      process.exit(restartCode);
    },
    Math.max(0, until.getTime() - Date.now()) + 1000,
  ).unref();
}

/** The program and arguments that run this agent: the single executable, or Node with the bundle or sources. */
export function selfCommand(): [string, ...string[]] {
  const script = process.argv[1];
  // A single executable's argv[1] is its own path; Node's is the script (the release's launcher keeps it).
  const isExecutable = script === undefined || path.resolve(script) === path.resolve(process.execPath);
  return [process.execPath, ...process.execArgv, ...(isExecutable ? [] : [script])];
}

/**
 * Runs `version --release FILE` through this agent's program: the release must start and tell the
 * version the portal offered. A file that is not an agent, or another version, is refused.
 */
export function selfTest(file: string, command = selfCommand(), timeoutMs = 30_000): Promise<string> {
  const [program, ...args] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...args, 'version', '--release', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      windowsHide: true,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(out.trim());
      else
        reject(
          new Error(
            `it did not start (${signal ? `ended by ${signal}` : `exit code ${String(code)}`}): ${(err || out).trim().slice(0, 500)}`,
          ),
        );
    });
  });
}

/** Where a release's file is kept in the data folder. */
export function releaseFile(folder: DataFolder, version: string, fileName = 'cfs-agent.cjs'): string {
  return path.join(folder.dir, 'releases', safeName(version), fileName);
}

/**
 * Takes an offered release: downloaded (by `download`), then checked — its SHA-256, the portal's
 * signature under the pinned key, and a start that tells the offered version — and put on trial
 * with its deadline. Throws why it was refused; the caller reports it.
 */
export async function stageRelease(
  folder: DataFolder,
  offer: AgentRelease,
  download: (destination: string) => Promise<void>,
  options: { command?: [string, ...string[]]; now?: Date } = {},
): Promise<StagedRelease> {
  const now = options.now ?? new Date();
  const file = releaseFile(folder, offer.version);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.part`;
  try {
    await download(partial);
    const staged: StagedRelease = {
      packageVersionId: offer.packageVersionId,
      version: offer.version,
      file: partial,
      sha256: offer.sha256.toLowerCase(),
      signature: offer.signature,
    };
    const refused = await releaseRefusal(staged, pinnedKey(folder));
    if (refused) throw new Error(`The agent ${offer.version} was not taken: ${refused}`);
    fs.renameSync(partial, file);
    const told = await selfTest(file, options.command).catch((error: unknown) => {
      throw new Error(`The agent ${offer.version} was not taken: ${(error as Error).message}`);
    });
    if (told !== offer.version)
      throw new Error(
        `The agent ${offer.version} was not taken: its file says it is ${told.slice(0, 100) || 'no version'}`,
      );
    const release = { ...staged, file };
    const state = readReleases(folder);
    writeReleases(folder, {
      ...state,
      trial: {
        ...release,
        starts: 0,
        from: AGENT_VERSION,
        deadline: new Date(now.getTime() + offer.rollbackMinutes * 60_000).toISOString(),
      },
    });
    return release;
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * Once the trial has reported to the portal, it is what this machine runs: the release before it
 * (and any other) is removed from the data folder.
 */
export function confirmTrial(folder: DataFolder): void {
  const state = readReleases(folder);
  if (!state.trial) return;
  const { trial, outcome: _told, ...rest } = state;
  const { deadline: _deadline, starts: _starts, from: _from, ...current } = trial;
  writeReleases(folder, { ...rest, current });
  const keep = path.dirname(current.file);
  const releases = path.join(folder.dir, 'releases');
  for (const entry of fs.readdirSync(releases, { withFileTypes: true }))
    if (entry.isDirectory() && path.join(releases, entry.name) !== keep)
      fs.rmSync(path.join(releases, entry.name), { recursive: true, force: true });
}

/** Whether this process runs the release on trial. */
export function onTrial(folder: DataFolder): StagedRelease | undefined {
  const trial = readReleases(folder).trial;
  const launched = launchedRelease();
  return trial && launched && path.resolve(trial.file) === path.resolve(launched) ? trial : undefined;
}

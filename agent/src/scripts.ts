import { spawn } from 'node:child_process';
import { verify } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  SCRIPT_LIMITS,
  SCRIPT_MESSAGES,
  SCRIPT_TIMEOUT_PARAMETER,
  scriptSigningText,
  type AgentScript,
} from '@cfs/contracts/agent';
import type { DataFolder } from './data-folder.js';
import { safeName, sha256Of, type InstalledPackages } from './installer.js';
import { windowsTool } from './windows-tools.js';
import type { AgentScriptRunText } from './outbox.js';

/** Where the agent keeps the portal's script key, the first one it was given. */
export const SCRIPT_KEY_FILE = 'script-key.json';

/**
 * Which scripts this agent may run, decided on the device: those of the catalogue packages its
 * owner names with `--script-allow NAME[,NAME…]` (or CFS_AGENT_SCRIPT_ALLOW), by the package's name
 * or its folder under `packages/`. None without it. Nothing the portal sends changes it.
 */
export interface ScriptPolicy {
  readonly packages: readonly string[];
}

export function scriptPolicy(allow: string | undefined): ScriptPolicy {
  return {
    packages: (allow ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  };
}

/**
 * The portal's script key: the one this agent pinned when it first heard from the portal, kept in
 * its data folder. A key the portal sends later that differs is not taken: the scripts it signs
 * are refused.
 */
export function pinnedScriptKey(folder: DataFolder, offered: string): string {
  const pinned = folder.readJson<{ publicKey: string }>(SCRIPT_KEY_FILE)?.publicKey;
  if (pinned) return pinned;
  folder.writeJson(SCRIPT_KEY_FILE, { publicKey: offered }, true);
  return offered;
}

/** Whether the portal's signature of the script holds under `key` (a key that is no key holds nothing). */
function signedBy(key: string, script: AgentScript): boolean {
  try {
    return verify(null, Buffer.from(scriptSigningText(script)), key, Buffer.from(script.signature, 'base64'));
  } catch {
    return false;
  }
}

/** Why a script may not run here, or nothing when it may: checked before anything runs. */
async function refusal(
  script: AgentScript | null,
  key: string,
  policy: ScriptPolicy,
  installed: InstalledPackages,
  platform: NodeJS.Platform,
): Promise<{ refused: string } | { file: string; sha256: string }> {
  if (!script) return { refused: SCRIPT_MESSAGES.notInstalled };
  const named = policy.packages.some((name) => name === script.packageName || name === safeName(script.packageName));
  if (!named)
    return {
      refused: `The package "${script.packageName}" is not in this agent's script allow list (--script-allow): its scripts do not run here.`,
    };
  if (!signedBy(key, script))
    return { refused: "The script's signature does not hold under the portal key this agent pinned: it was not run." };
  const entry = installed[script.packageId];
  // The file this agent installed for that package, in that package's own folder under packages/.
  const folderName = entry ? path.basename(path.dirname(path.dirname(entry.path))) : undefined;
  if (!entry || entry.packageVersionId !== script.packageVersionId || folderName !== safeName(script.packageName))
    return { refused: `Version ${script.packageVersionId} of "${script.packageName}" is not the one installed here.` };
  const sha256 = await sha256Of(entry.path).catch(() => '');
  if (sha256 !== script.sha256.toLowerCase())
    return {
      refused: 'The script file on this device is not the one the portal signed (its SHA-256 differs): it was not run.',
    };
  const extension = path.extname(entry.path).toLowerCase();
  if (extension === '.sh' && platform !== 'win32') return { file: entry.path, sha256 };
  if (extension === '.ps1' && platform === 'win32') return { file: entry.path, sha256 };
  return {
    refused: `This agent runs shell scripts (.sh) on Linux and PowerShell scripts (.ps1) on Windows, not "${path.basename(entry.path)}".`,
  };
}

/** A stream's first SCRIPT_LIMITS.outputBytes bytes, and whether there were more. */
class Capped {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  cut = false;

  add(chunk: Buffer): void {
    const room = SCRIPT_LIMITS.outputBytes - this.kept;
    if (chunk.length > room) this.cut = true;
    if (room <= 0) return;
    const part = chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  text(): string {
    // A character cut in two at the limit becomes U+FFFD; the text stays within the limit in characters.
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** The script's timeout: its TimeoutSeconds parameter (1 s to an hour), else 5 minutes. */
function timeoutSeconds(parameters: ReadonlyMap<string, string | undefined>): number {
  const asked = Number(parameters.get(SCRIPT_TIMEOUT_PARAMETER));
  return Number.isFinite(asked) && asked >= 1
    ? Math.min(asked, SCRIPT_LIMITS.timeoutSecondsMax)
    : SCRIPT_LIMITS.timeoutSeconds;
}

/** Ends the script and whatever it started: its process group on Linux, its process tree on Windows. */
function killTree(pid: number, platform: NodeJS.Platform): void {
  try {
    if (platform === 'win32')
      spawn(windowsTool('taskkill'), ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

export interface ScriptContext {
  folder: DataFolder;
  policy: ScriptPolicy;
  /** The portal key this agent pinned. */
  key: string;
  installed: InstalledPackages;
  platform?: NodeJS.Platform;
}

/**
 * Runs a Script operation's script when this agent may (its package in the allow list, the
 * portal's signature holding under the pinned key, the file on disk the one signed), with its
 * timeout, in a folder of its own that is removed afterwards, without the agent's token in its
 * environment; answers how it ran, or why it was refused.
 */
export async function runScript(
  script: AgentScript | null,
  parameters: ReadonlyMap<string, string | undefined>,
  context: ScriptContext,
): Promise<AgentScriptRunText> {
  const platform = context.platform ?? process.platform;
  const started = new Date();
  const checked = await refusal(script, context.key, context.policy, context.installed, platform);
  const ran = (fields: Partial<AgentScriptRunText>): AgentScriptRunText => ({
    started: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    sha256: null,
    exitCode: null,
    timedOut: false,
    refused: null,
    stdout: '',
    stderr: '',
    truncated: false,
    ...fields,
  });
  if ('refused' in checked) return ran({ refused: checked.refused });
  const workDir = await fs.mkdtemp(path.join(context.folder.dir, 'script-'));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^CFS_AGENT_TOKEN$|^CFS_PORTAL/.test(name)),
  );
  const [program, args] =
    platform === 'win32'
      ? [
          windowsTool('powershell'),
          ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', checked.file],
        ]
      : ['/bin/sh', [checked.file]];
  const stdout = new Capped();
  const stderr = new Capped();
  try {
    const outcome = await new Promise<{ exitCode: number | null; timedOut: boolean }>((resolve, reject) => {
      const child = spawn(program, args, {
        cwd: workDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: platform !== 'win32',
        windowsHide: true,
      });
      let timedOut = false;
      const timer = setTimeout(
        () => {
          timedOut = true;
          if (child.pid !== undefined) killTree(child.pid, platform);
        },
        timeoutSeconds(parameters) * 1000,
      );
      child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ exitCode: timedOut ? null : code, timedOut });
      });
    });
    return ran({
      sha256: checked.sha256,
      ...outcome,
      stdout: stdout.text(),
      stderr: stderr.text(),
      truncated: stdout.cut || stderr.cut,
    });
  } catch (error) {
    return ran({ sha256: checked.sha256, refused: `The script could not be started: ${(error as Error).message}` });
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

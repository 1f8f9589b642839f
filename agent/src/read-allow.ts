import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where this agent's file operations may read, decided on the device: its own data folder, plus
 * the folders its owner lists with `--read-allow` (or CFS_AGENT_READ_ALLOW). Nothing the portal
 * sends changes it: an operation names a path, the agent decides whether it reads it (DESIGN.md
 * "Agents decide what they run"), so a portal user cannot turn an agent into a reader of its
 * machine's keys.
 */
export interface ReadPolicy {
  readonly roots: readonly string[];
  /** The agent's data folder: readable, apart from its secrets. */
  readonly dataDir: string;
}

/**
 * What the agent (and the portal's demo, which writes the token it enrols with) keeps secret in
 * its data folder, by name: Windows has no owner-only mode to tell them by.
 */
const SECRET_ENTRIES = new Set(['identity.json', 'token', 'outbox.jsonl', 'downloads']);

/** The folders of `--read-allow`: separated by commas or the platform's path delimiter (`:`, `;` on Windows). */
export function readPolicy(dataDir: string, allow: string | undefined): ReadPolicy {
  const listed = (allow ?? '')
    .split(new RegExp(`[,${path.delimiter}]`))
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => path.resolve(entry));
  return { roots: [path.resolve(dataDir), ...listed], dataDir: path.resolve(dataDir) };
}

/** The real path when there is one (symlinks and `..` resolved), else the path as written. */
async function realOrResolved(file: string): Promise<string> {
  const resolved = path.resolve(file);
  try {
    return await fs.realpath(resolved);
  } catch {
    return resolved;
  }
}

/** Installed packages' files: what the portal itself shipped, kept owner-only as they were downloaded. */
const INSTALLED_PACKAGES = 'packages';

/** A file only its owner may read (mode 0600): whatever its name, the agent keeps it secret. */
async function isOwnerOnly(file: string): Promise<boolean> {
  if (process.platform === 'win32') return false;
  const stat = await fs.stat(file).catch(() => undefined);
  return stat !== undefined && stat.isFile() && (stat.mode & 0o077) === 0;
}

function isWithin(file: string, folder: string): boolean {
  const [a, b] = process.platform === 'win32' ? [file.toLowerCase(), folder.toLowerCase()] : [file, folder];
  const relative = path.relative(b, a);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * The real path of a file the policy lets this agent read; throws, with words for the operation
 * log, for any other. The check is on the real path, so a symlink or `..` inside an allowed
 * folder cannot lead out of it; a path that does not resolve is judged as written, so a refusal
 * does not tell whether the file exists.
 */
export async function readablePath(policy: ReadPolicy, file: string): Promise<string> {
  const real = await realOrResolved(file);
  const roots = await Promise.all(policy.roots.map(realOrResolved));
  if (!roots.some((root) => isWithin(real, root)))
    throw new Error(`${file} is outside the folders this agent may read (--read-allow)`);
  const dataDir = await realOrResolved(policy.dataDir);
  if (isWithin(real, dataDir) && real !== dataDir) {
    const first = path.relative(dataDir, real).split(path.sep)[0] ?? '';
    if (
      SECRET_ENTRIES.has(first) ||
      first.endsWith('.tmp') ||
      (first !== INSTALLED_PACKAGES && (await isOwnerOnly(real)))
    ) {
      throw new Error(`${file} is one of this agent's own secrets: it never reads it`);
    }
  }
  return real;
}

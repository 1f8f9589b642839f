import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The agent's data folder: its own key and device credential (readable by its user only), the
 * outbox, and what it has installed and run once. Everything the agent must remember across
 * restarts lives here.
 */
export class DataFolder {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  file(name: string): string {
    return path.join(this.dir, name);
  }

  readJson<T>(name: string): T | undefined {
    try {
      return JSON.parse(fs.readFileSync(this.file(name), 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Written whole to a temporary file then renamed, so a crash leaves the old or the new content, never half. */
  writeJson(name: string, value: unknown, secret = false): void {
    const target = this.file(name);
    const temporary = `${target}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: secret ? 0o600 : 0o644 });
    // The mode of an existing file is not changed by writeFileSync.
    if (secret) fs.chmodSync(temporary, 0o600);
    fs.renameSync(temporary, target);
  }

  remove(name: string): void {
    fs.rmSync(this.file(name), { force: true });
  }
}

export interface Identity {
  /** The agent's own random key: with the tenant token, it is what the portal knows the agent by. */
  agentKey: string;
  deviceId?: string;
  /** The device credential the portal hands over once the device is promoted. */
  credential?: string;
  portalUrl?: string;
}

export const IDENTITY_FILE = 'identity.json';

/** The agent's identity, made on first start (a new random key). */
export function loadIdentity(folder: DataFolder): Identity {
  const existing = folder.readJson<Identity>(IDENTITY_FILE);
  if (existing?.agentKey) return existing;
  const identity: Identity = { agentKey: randomBytes(32).toString('base64url') };
  folder.writeJson(IDENTITY_FILE, identity, true);
  return identity;
}

export function saveIdentity(folder: DataFolder, identity: Identity): void {
  folder.writeJson(IDENTITY_FILE, identity, true);
}

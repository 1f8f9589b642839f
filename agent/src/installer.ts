import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AgentPackage } from '@cfs/contracts/agent';
import type { DataFolder } from './data-folder.js';
import type { PortalClient } from './portal-client.js';

const INSTALLED_FILE = 'installed.json';

/** What this machine has installed, by package id. */
export type InstalledPackages = Record<string, { packageVersionId: string; version: string; path: string; sha256: string }>;

export function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('error', reject)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')));
  });
}

const safeName = (text: string) => text.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'package';

/**
 * Installs the package versions the portal wants on this device: downloads each file, checks its
 * SHA-256 against the one the portal published before anything is kept, and places it under
 * `packages/<package>/<version>/` in the data folder. A file whose hash differs is thrown away and
 * reported as Failed.
 */
export class Installer {
  constructor(
    private readonly folder: DataFolder,
    private readonly client: PortalClient,
  ) {}

  installed(): InstalledPackages {
    return this.folder.readJson<InstalledPackages>(INSTALLED_FILE) ?? {};
  }

  /** The wanted versions that this machine does not have yet. */
  pending(packages: readonly AgentPackage[]): AgentPackage[] {
    const installed = this.installed();
    return packages.filter((pkg) => installed[pkg.packageId]?.packageVersionId !== pkg.packageVersionId);
  }

  async install(pkg: AgentPackage, credential: string): Promise<{ path: string }> {
    const target = path.join(this.folder.dir, 'packages', safeName(pkg.packageName), safeName(pkg.version));
    const downloads = path.join(this.folder.dir, 'downloads');
    await fs.mkdir(downloads, { recursive: true });
    const temporary = path.join(downloads, `${pkg.packageVersionId}.part`);
    try {
      await this.client.download(pkg.downloadUrl, credential, temporary);
      const actual = await sha256Of(temporary);
      if (actual !== pkg.sha256.toLowerCase()) throw new Error(`The downloaded file's SHA-256 is ${actual}, not ${pkg.sha256}: it was not installed`);
      await fs.mkdir(target, { recursive: true });
      const file = path.join(target, safeName(pkg.fileName));
      await fs.rename(temporary, file);
      if (pkg.executableName && process.platform !== 'win32') await fs.chmod(file, 0o755);
      const installed = this.installed();
      installed[pkg.packageId] = { packageVersionId: pkg.packageVersionId, version: pkg.version, path: file, sha256: actual };
      this.folder.writeJson(INSTALLED_FILE, installed);
      return { path: file };
    } finally {
      await fs.rm(temporary, { force: true });
    }
  }
}

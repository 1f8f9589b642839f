import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AgentPackage } from '@cfs/contracts/agent';
import type { DataFolder } from './data-folder.js';
import type { PortalClient } from './portal-client.js';

const INSTALLED_FILE = 'installed.json';

/** What this machine has installed, by package id. */
export type InstalledPackages = Record<
  string,
  { packageVersionId: string; version: string; path: string; sha256: string }
>;

export function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('error', reject)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** A name (a package's, a version's, a file's) as the data folder spells it in its paths. */
export const safeName = (text: string) => text.replace(/[^\w.-]+/g, '_').slice(0, 100) || 'package';

/**
 * Installs the package versions the portal wants on this device: downloads each file, checks its
 * SHA-256 against the one the portal published before anything is kept, and places it under
 * `packages/<package>/<version>/` in the data folder. A file whose hash differs is thrown away and
 * reported as Failed. An upgrade keeps only the new version: the old one's folder goes once the
 * new one is in place. A package the portal no longer wants is removed: its files and its entry.
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
      if (actual !== pkg.sha256.toLowerCase())
        throw new Error(`The downloaded file's SHA-256 is ${actual}, not ${pkg.sha256}: it was not installed`);
      await fs.mkdir(target, { recursive: true });
      const file = path.join(target, safeName(pkg.fileName));
      await fs.rename(temporary, file);
      if (pkg.executableName && process.platform !== 'win32') await fs.chmod(file, 0o755);
      const installed = this.installed();
      const previous = installed[pkg.packageId];
      installed[pkg.packageId] = {
        packageVersionId: pkg.packageVersionId,
        version: pkg.version,
        path: file,
        sha256: actual,
      };
      this.folder.writeJson(INSTALLED_FILE, installed);
      // Only after the new version is recorded: a crash before this leaves the old one working.
      if (previous && path.dirname(previous.path) !== target) await this.removeFiles(previous.path);
      return { path: file };
    } finally {
      await fs.rm(temporary, { force: true });
    }
  }

  /** The installed packages the portal no longer lists as wanted on this device. */
  unwanted(
    packages: readonly AgentPackage[],
  ): { packageId: string; packageVersionId: string; version: string; path: string }[] {
    const wanted = new Set(packages.map((pkg) => pkg.packageId));
    return Object.entries(this.installed())
      .filter(([packageId]) => !wanted.has(packageId))
      .map(([packageId, local]) => ({ packageId, ...local }));
  }

  /** Deletes an installed package's files; it stays in installed.json until `forget`, so a removal the portal did not hear of is reported again. */
  async remove(packageId: string): Promise<void> {
    const local = this.installed()[packageId];
    if (local) await this.removeFiles(local.path);
  }

  forget(packageId: string): void {
    const installed = this.installed();
    if (!(packageId in installed)) return;
    delete installed[packageId];
    this.folder.writeJson(INSTALLED_FILE, installed);
  }

  /**
   * The folder of one installed version (`packages/<package>/<version>/`), then its package's
   * folder if nothing else is left in it. Only ever under `packages/`: a path in installed.json
   * that leads elsewhere (edited by hand) is not followed.
   */
  private async removeFiles(file: string): Promise<void> {
    const packages = path.resolve(this.folder.dir, 'packages');
    const versionFolder = path.dirname(path.resolve(file));
    const packageFolder = path.dirname(versionFolder);
    if (path.dirname(packageFolder) !== packages) return;
    await fs.rm(versionFolder, { recursive: true, force: true });
    await fs.rmdir(packageFolder).catch(() => undefined);
  }
}

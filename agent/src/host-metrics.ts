import path from 'node:path';
import si from 'systeminformation';

/**
 * The machine's CPU and memory use. systeminformation measures CPU load between two calls, so the
 * first reading (since boot, which it reports as 100% on some systems) is taken once and thrown away.
 */
const MIN_WINDOW_MS = 1000;

/** One mounted file system as systeminformation's fsSize lists it. */
export interface MountedDisk {
  mount: string;
  size: number;
  available: number;
  use: number;
}

/** How full one disk is: what a disk operation reports. */
export interface DiskUse {
  /** The mount point (a drive such as `C:` on Windows) the figures are of. */
  mount: string;
  usedPercent: number;
  freePercent: number;
  freeBytes: number;
  sizeBytes: number;
}

const driveOf = (text: string) => /^([a-z]):/i.exec(text)?.[1]?.toUpperCase();

/**
 * The disk that holds `where`. On Windows a drive (`C:`, `D:\data`); `/`, `\` or nothing is the
 * system drive. Elsewhere any path: the mount point that holds it (the longest one that contains
 * it, as `df PATH` answers), so `/var/log` reports `/var` when that is mounted apart and `/`
 * otherwise. Undefined when no listed disk holds it.
 */
export function diskOf(
  disks: readonly MountedDisk[],
  where: string | undefined,
  platform: NodeJS.Platform = process.platform,
  systemDrive = process.env.SystemDrive ?? 'C:',
): MountedDisk | undefined {
  if (platform === 'win32') {
    const given = where?.trim() ?? '';
    const drive = /^[\\/]*$/.test(given) ? driveOf(systemDrive) : driveOf(given);
    return drive ? disks.find((disk) => driveOf(disk.mount) === drive) : undefined;
  }
  const target = path.posix.resolve('/', where?.trim() || '/');
  const holds = (mount: string) =>
    mount === '/' || target === mount || target.startsWith(`${mount.replace(/\/+$/, '')}/`);
  return disks
    .filter((disk) => disk.mount.startsWith('/') && holds(disk.mount))
    .sort((a, b) => b.mount.length - a.mount.length)[0];
}

export class HostMetrics {
  private primed: Promise<number> | undefined;

  private prime(): Promise<number> {
    this.primed ??= si.currentLoad().then(() => Date.now());
    return this.primed;
  }

  async sample(): Promise<{ cpuPercent: number; memoryPercent: number }> {
    // The first real reading covers at least a second: over a few milliseconds the load is noise.
    const primedAt = await this.prime();
    const wait = primedAt + MIN_WINDOW_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const [load, memory] = await Promise.all([si.currentLoad(), si.mem()]);
    // `active` leaves out caches and buffers the system gives back on demand: what a person calls "used".
    const memoryPercent = memory.total > 0 ? (memory.active / memory.total) * 100 : 0;
    return { cpuPercent: round(load.currentLoad), memoryPercent: round(memoryPercent) };
  }

  /** The disk that holds `where` (see diskOf); throws, with words for the operation log, when none does. */
  async disk(where?: string): Promise<DiskUse> {
    const disk = diskOf(await si.fsSize(), where);
    if (!disk) throw new Error(`No disk of this machine holds ${where?.trim() || 'the system folder'}`);
    // `use` is of the space a user may fill (root's reserve left out), as df reports it: free is the rest.
    const usedPercent = round(disk.use);
    return {
      mount: disk.mount,
      usedPercent,
      freePercent: round(100 - disk.use),
      freeBytes: disk.available,
      sizeBytes: disk.size,
    };
  }
}

const round = (value: number) => Math.round(value * 100) / 100;

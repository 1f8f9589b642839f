import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import si from 'systeminformation';
import { INVENTORY_LIMITS, type AgentInventory } from '@cfs/contracts/agent';
import { windowsTool } from './windows-tools.js';

const run = promisify(execFile);

/** What a listing command printed, or nothing when the command is not on this machine or failed. */
async function output(command: string, args: readonly string[], timeoutMs = 60_000): Promise<string | undefined> {
  try {
    const { stdout } = await run(command, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch {
    return undefined;
  }
}

const text = (value: string) => value.trim().slice(0, INVENTORY_LIMITS.text);

/** Tab-separated lines of name, version and publisher, one entry a name (the first kept), at most the report's limit. */
export function softwareFrom(listing: string): AgentInventory['software'] {
  const seen = new Set<string>();
  const software: AgentInventory['software'] = [];
  for (const line of listing.split(/\r?\n/)) {
    const [name = '', version = '', publisher = ''] = line.split('\t');
    const key = text(name);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    software.push({ name: key, version: text(version), publisher: text(publisher) || null });
    if (software.length === INVENTORY_LIMITS.software) break;
  }
  return software;
}

/**
 * The programs Windows lists under Apps (the machine's uninstall entries, 64- and 32-bit), as
 * tab-separated lines in UTF-8: those with a name, less system components and the updates of
 * another entry. Programs installed for one user only are in that user's registry, which the
 * agent (running as SYSTEM) does not read.
 */
export const WINDOWS_PROGRAMS_SCRIPT = [
  '[Console]::OutputEncoding = [Text.Encoding]::UTF8',
  "$keys = 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*', 'HKLM:\\SOFTWARE\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*'",
  'Get-ItemProperty -Path $keys -ErrorAction SilentlyContinue |',
  '  Where-Object { $_.DisplayName -and -not $_.SystemComponent -and -not $_.ParentKeyName } |',
  '  ForEach-Object { ($_.DisplayName, $_.DisplayVersion, $_.Publisher | ForEach-Object { "$_" -replace \'[\\t\\r\\n]\', \' \' }) -join "`t" }',
].join('\n');

/** Runs a listing command: what it printed, or nothing when it is not on this machine or failed. */
export type ListingRunner = (command: string, args: readonly string[]) => Promise<string | undefined>;

/**
 * The installed software as the system lists it: dpkg on Debian and its kin (multi-arch packages
 * named with their architecture), else rpm; on Windows the programs of its uninstall entries
 * (WINDOWS_PROGRAMS_SCRIPT, through PowerShell). Software installed outside these is not listed.
 */
export async function installedSoftware(
  platform: NodeJS.Platform = process.platform,
  list: ListingRunner = output,
): Promise<AgentInventory['software']> {
  if (platform === 'win32') {
    const programs = await list(windowsTool('powershell'), [
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-Command',
      WINDOWS_PROGRAMS_SCRIPT,
    ]);
    return programs === undefined ? [] : softwareFrom(programs);
  }
  if (platform !== 'linux') return [];
  const dpkg = await list('dpkg-query', ['-W', '-f', '${binary:Package}\t${Version}\t${Maintainer}\n']);
  if (dpkg !== undefined) return softwareFrom(dpkg);
  const rpm = await list('rpm', ['-qa', '--qf', '%{NAME}\t%{VERSION}-%{RELEASE}\t%{VENDOR}\n']);
  return rpm === undefined ? [] : softwareFrom(rpm);
}

/** Pending updates where the system tells them without changing anything: apt's simulated upgrade on Debian. */
async function pendingPatches(): Promise<number | null> {
  if (process.platform !== 'linux') return null;
  const simulated = await output('apt-get', ['-s', '-o', 'Debug::NoLocking=1', 'upgrade']);
  if (simulated === undefined) return null;
  return simulated.split('\n').filter((line) => line.startsWith('Inst ')).length;
}

/** This machine's inventory: hardware, operating system, pending patches and installed software. */
export async function collectInventory(): Promise<AgentInventory> {
  const [cpu, memory, disks, os, software, patches] = await Promise.all([
    si.cpu(),
    si.mem(),
    si.diskLayout().catch(() => []),
    si.osInfo(),
    installedSoftware(),
    pendingPatches(),
  ]);
  return {
    hardware: {
      cpuModel: text([cpu.manufacturer, cpu.brand].filter(Boolean).join(' ')) || 'Unknown',
      cores: Math.max(1, cpu.cores),
      memoryBytes: Math.max(0, Math.round(memory.total)),
      disks: disks.slice(0, INVENTORY_LIMITS.disks).map((disk) => ({
        name: text(disk.name || disk.device || 'Disk'),
        sizeBytes: Math.max(0, Math.round(disk.size)),
      })),
    },
    os: {
      name: text(os.distro || os.platform),
      version: text(os.release),
      build: text(os.build || os.kernel),
      pendingPatches: patches,
    },
    software,
  };
}

import { describe, expect, it } from 'vitest';
import { INVENTORY_LIMITS } from '@cfs/contracts/agent';
import { installedSoftware, softwareFrom, WINDOWS_PROGRAMS_SCRIPT, type ListingRunner } from './inventory.js';
import { windowsTool } from './windows-tools.js';

/** A runner that answers each command with what `answers` holds for it, and records what was asked. */
function recording(answers: Record<string, string | undefined>) {
  const asked: { command: string; args: readonly string[] }[] = [];
  const run: ListingRunner = async (command, args) => {
    asked.push({ command, args });
    return answers[command];
  };
  return { asked, run };
}

describe('installed software', () => {
  it('reads tab-separated lines, one entry a name, an empty publisher as none, Windows line ends included', () => {
    expect(
      softwareFrom(
        'openssl\t3.0.15-1~deb12u1\tDebian OpenSSL Team\r\n\nopenssl\t9\tdup\nlibc6:amd64\t2.36-9\t\n  \t1\tx\n',
      ),
    ).toEqual([
      { name: 'openssl', version: '3.0.15-1~deb12u1', publisher: 'Debian OpenSSL Team' },
      { name: 'libc6:amd64', version: '2.36-9', publisher: null },
    ]);
    const many = Array.from({ length: INVENTORY_LIMITS.software + 5 }, (_, index) => `p${index}\t1\t`).join('\n');
    expect(softwareFrom(many)).toHaveLength(INVENTORY_LIMITS.software);
  });

  it('lists dpkg packages on Linux, rpm packages where dpkg is not, and nothing where neither is', async () => {
    const debian = recording({ 'dpkg-query': 'bash\t5.2.15-2+b7\tMatthias Klose\n' });
    expect(await installedSoftware('linux', debian.run)).toEqual([
      { name: 'bash', version: '5.2.15-2+b7', publisher: 'Matthias Klose' },
    ]);
    expect(debian.asked.map((call) => call.command)).toEqual(['dpkg-query']);
    const redHat = recording({ rpm: 'bash\t5.1.8-9.el9\tRed Hat, Inc.\n' });
    expect(await installedSoftware('linux', redHat.run)).toEqual([
      { name: 'bash', version: '5.1.8-9.el9', publisher: 'Red Hat, Inc.' },
    ]);
    expect(redHat.asked.map((call) => call.command)).toEqual(['dpkg-query', 'rpm']);
    expect(await installedSoftware('linux', recording({}).run)).toEqual([]);
    expect(await installedSoftware('darwin', recording({ 'dpkg-query': 'bash\t1\t\n' }).run)).toEqual([]);
  });

  it('lists the programs of Windows uninstall entries through PowerShell, in UTF-8', async () => {
    const windows = recording({
      [windowsTool('powershell')]:
        'Mozilla Firefox (x64 en-US)\t133.0\tMozilla\r\n7-Zip 24.08 (x64)\t24.08\tIgor Pavlov\r\nNotepad++ (64-bit x64)\t8.7.1\t\r\n',
    });
    expect(await installedSoftware('win32', windows.run)).toEqual([
      { name: 'Mozilla Firefox (x64 en-US)', version: '133.0', publisher: 'Mozilla' },
      { name: '7-Zip 24.08 (x64)', version: '24.08', publisher: 'Igor Pavlov' },
      { name: 'Notepad++ (64-bit x64)', version: '8.7.1', publisher: null },
    ]);
    const [call] = windows.asked;
    expect(call?.command).toBe('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    expect(call?.args.slice(0, 2)).toEqual(['-NoProfile', '-NonInteractive']);
    expect(call?.args.at(-1)).toBe(WINDOWS_PROGRAMS_SCRIPT);
    // Both registry views (64- and 32-bit programs), read as UTF-8, tabs inside a value made spaces.
    expect(WINDOWS_PROGRAMS_SCRIPT).toContain('HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*');
    expect(WINDOWS_PROGRAMS_SCRIPT).toContain(
      'HKLM:\\SOFTWARE\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*',
    );
    expect(WINDOWS_PROGRAMS_SCRIPT).toContain('[Console]::OutputEncoding = [Text.Encoding]::UTF8');
    expect(await installedSoftware('win32', recording({}).run)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { agentInstallCommands } from './agent-install-dialog';

const PORTAL = {
  portalUrl: 'https://portal.example',
  linuxDownloadUrl: 'https://portal.example/downloads/agent/cfs-agent-linux-x64',
  windowsDownloadUrl: 'https://portal.example/downloads/agent/cfs-agent-win-x64.exe',
};

describe('the agent install commands', () => {
  it('name the portal and the download as they are, and quote them for the shell when they need it', () => {
    expect(agentInstallCommands(PORTAL).linux).toEqual({
      install: [
        'curl -fLo cfs-agent https://portal.example/downloads/agent/cfs-agent-linux-x64 && chmod +x cfs-agent',
        'sudo ./cfs-agent install --portal https://portal.example --token-file token.txt',
      ].join('\n'),
      uninstall: 'sudo /opt/cfs-agent/cfs-agent uninstall',
    });
    expect(
      agentInstallCommands({ ...PORTAL, portalUrl: "https://portal.example/o'neil", linuxDownloadUrl: 'https://x/a b' })
        .linux.install,
    ).toBe(
      [
        "curl -fLo cfs-agent 'https://x/a b' && chmod +x cfs-agent",
        "sudo ./cfs-agent install --portal 'https://portal.example/o'\\''neil' --token-file token.txt",
      ].join('\n'),
    );
  });

  it('on Windows, download and install from PowerShell, and uninstall from where the install put the agent', () => {
    expect(agentInstallCommands(PORTAL).windows).toEqual({
      install: [
        'Invoke-WebRequest -Uri https://portal.example/downloads/agent/cfs-agent-win-x64.exe -OutFile cfs-agent-win-x64.exe -UseBasicParsing',
        '.\\cfs-agent-win-x64.exe install --portal https://portal.example --token-file token.txt',
      ].join('\n'),
      uninstall: '& "$env:ProgramFiles\\CFS Agent\\cfs-agent.exe" uninstall',
    });
    // In single quotes for PowerShell, where nothing is expanded: a quote, typographic ones too, doubled.
    expect(
      agentInstallCommands({
        ...PORTAL,
        portalUrl: "https://portal.example/o'neil’s",
        windowsDownloadUrl: 'https://x/a b$env:x;(1)?q=1&r=2',
      }).windows.install,
    ).toBe(
      [
        "Invoke-WebRequest -Uri 'https://x/a b$env:x;(1)?q=1&r=2' -OutFile cfs-agent-win-x64.exe -UseBasicParsing",
        ".\\cfs-agent-win-x64.exe install --portal 'https://portal.example/o''neil’’s' --token-file token.txt",
      ].join('\n'),
    );
  });
});

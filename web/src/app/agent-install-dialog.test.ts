import { describe, expect, it } from 'vitest';
import { agentInstallCommands } from './agent-install-dialog';

describe('the agent install commands', () => {
  it('name the portal and the download as they are, and quote them for the shell when they need it', () => {
    expect(
      agentInstallCommands({
        portalUrl: 'https://portal.example',
        linuxDownloadUrl: 'https://portal.example/downloads/agent/cfs-agent-linux-x64',
      }).install,
    ).toBe(
      [
        'curl -fLo cfs-agent https://portal.example/downloads/agent/cfs-agent-linux-x64 && chmod +x cfs-agent',
        'sudo ./cfs-agent install --portal https://portal.example --token-file token.txt',
      ].join('\n'),
    );
    expect(
      agentInstallCommands({ portalUrl: "https://portal.example/o'neil", linuxDownloadUrl: 'https://x/a b' }).install,
    ).toBe(
      [
        "curl -fLo cfs-agent 'https://x/a b' && chmod +x cfs-agent",
        "sudo ./cfs-agent install --portal 'https://portal.example/o'\\''neil' --token-file token.txt",
      ].join('\n'),
    );
  });
});

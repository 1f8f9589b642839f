import { Link as RouterLink } from '../lib/router';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { DEVICE_MESSAGES, type TenantSettings } from '@cfs/contracts/devices';
import { usePermissions } from '../auth/session-data';

/** A word for a POSIX shell, in single quotes where it needs them. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A word for PowerShell, in single quotes where it needs them, with a quote inside doubled
 * (PowerShell takes the typographic single quotes for quotes too). A bare word starts with a letter:
 * one that starts with `-` is a parameter, and one with a digit may be read as a number.
 */
function powerShellWord(text: string): string {
  return /^[A-Za-z][\w:/.-]*$/.test(text) ? text : `'${text.replace(/['\u2018\u2019\u201a\u201b]/g, '$&$&')}'`;
}

interface Commands {
  install: string;
  uninstall: string;
}

/**
 * The commands that install the agent as a service and remove it: on Linux, as root, the systemd
 * service; on Windows, from PowerShell run as administrator, the scheduled task.
 */
export function agentInstallCommands(install: TenantSettings['agentInstall']): { linux: Commands; windows: Commands } {
  return {
    linux: {
      install: [
        `curl -fLo cfs-agent ${shellWord(install.linuxDownloadUrl)} && chmod +x cfs-agent`,
        `sudo ./cfs-agent install --portal ${shellWord(install.portalUrl)} --token-file token.txt`,
      ].join('\n'),
      uninstall: 'sudo /opt/cfs-agent/cfs-agent uninstall',
    },
    windows: {
      install: [
        // -UseBasicParsing: Windows PowerShell 5.1 otherwise wants Internet Explorer's engine, which
        // a server may not have; PowerShell 7 takes it and does nothing with it.
        `Invoke-WebRequest -Uri ${powerShellWord(install.windowsDownloadUrl)} -OutFile cfs-agent-win-x64.exe -UseBasicParsing`,
        `.\\cfs-agent-win-x64.exe install --portal ${powerShellWord(install.portalUrl)} --token-file token.txt`,
      ].join('\n'),
      uninstall: '& "$env:ProgramFiles\\CFS Agent\\cfs-agent.exe" uninstall',
    },
  };
}

function CommandLines({ label, text }: { label: string; text: string }) {
  return (
    <Paper
      variant="outlined"
      component="pre"
      aria-label={label}
      sx={{ p: 1.5, my: 1, overflow: 'auto', fontSize: '0.8rem', whiteSpace: 'pre' }}
    >
      {text}
    </Paper>
  );
}

export interface AgentInstallDialogProps {
  tenantId: string;
  settings: TenantSettings;
  onClose: () => void;
}

/** The Welcome page's install commands: the agent as a systemd service on Linux, or as a scheduled task on Windows. */
export default function AgentInstallDialog({ tenantId, settings, onClose }: AgentInstallDialogProps) {
  const commands = agentInstallCommands(settings.agentInstall);
  const canMakeTokens = usePermissions().has('Tokens', 'edit');
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="agent-install-title">
      <DialogTitle id="agent-install-title">{DEVICE_MESSAGES.installAgent}</DialogTitle>
      <DialogContent>
        <Typography variant="body2">
          Put a token of this tenant in <code>token.txt</code> (
          {canMakeTokens ? (
            <Link component={RouterLink} to={`/${tenantId}/tokens`}>
              Tokens
            </Link>
          ) : (
            'an administrator makes one under Tokens'
          )}
          ), then run on the Linux machine, as root:
        </Typography>
        <CommandLines label="Linux install commands" text={commands.linux.install} />
        <Typography variant="body2" color="text.secondary">
          The agent runs as the <code>cfs-agent</code> systemd service, restarted when it stops, and reads the token
          from its own folder (<code>/var/lib/cfs-agent</code>), never from its command line. Run the same install again
          to change its settings. To remove it and its files:
        </Typography>
        <CommandLines label="Linux uninstall command" text={commands.linux.uninstall} />
        <Typography variant="body2" sx={{ mt: 2 }}>
          On a Windows machine, with <code>token.txt</code> in the current folder, in PowerShell run as administrator:
        </Typography>
        <CommandLines label="Windows install commands" text={commands.windows.install} />
        <Typography variant="body2" color="text.secondary">
          The agent runs as the <code>CFS Agent</code> scheduled task, started at boot as SYSTEM and started again a
          minute after it fails, and reads the token from its own folder (<code>%ProgramData%\CFS Agent</code>, open to
          SYSTEM and Administrators only). Run the same install again to change its settings. To remove it and its
          files:
        </Typography>
        <CommandLines label="Windows uninstall command" text={commands.windows.uninstall} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

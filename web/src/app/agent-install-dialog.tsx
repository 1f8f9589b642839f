import { Link as RouterLink } from 'react-router';
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

/** The commands that install the agent as a service on a Linux machine, and remove it. */
export function agentInstallCommands(install: TenantSettings['agentInstall']): { install: string; uninstall: string } {
  return {
    install: [
      `curl -fLo cfs-agent ${shellWord(install.linuxDownloadUrl)} && chmod +x cfs-agent`,
      `sudo ./cfs-agent install --portal ${shellWord(install.portalUrl)} --token-file token.txt`,
    ].join('\n'),
    uninstall: 'sudo /opt/cfs-agent/cfs-agent uninstall',
  };
}

function Commands({ label, text }: { label: string; text: string }) {
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

/** The Welcome page's install commands: the agent as a systemd service on Linux, or the Windows agent by hand. */
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
        <Commands label="Linux install commands" text={commands.install} />
        <Typography variant="body2" color="text.secondary">
          The agent runs as the <code>cfs-agent</code> systemd service, restarted when it stops, and reads the token
          from its own folder (<code>/var/lib/cfs-agent</code>), never from its command line. Run the same install again
          to change its settings. To remove it and its files:
        </Typography>
        <Commands label="Linux uninstall command" text={commands.uninstall} />
        {settings.agentDownloadUrl ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            On Windows, the agent runs in the foreground:{' '}
            <code>{`cfs-agent-win-x64.exe run --portal ${settings.agentInstall.portalUrl} --token-file token.txt`}</code>
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SideDrawer } from '../../components/side-drawer';
import { deleteFailureText, useActionDependencies, useDeleteActionDefinition, type ActionDefinition } from './api';

/**
 * Confirm Action Dependencies Before Delete (spec 002 §4: deletion in two steps): the protocols
 * and rules that use the action, then Continue asks the spec's question; the answer's message, or
 * 'Action Definition deleted successfully.', or the failure's own text.
 */
export default function ActionDeleteDrawer({
  action,
  onClose,
}: {
  action: ActionDefinition | null;
  onClose: () => void;
}) {
  const id = action?.actionDefinitionId ?? null;
  const { protocols, rules } = useActionDependencies(id);
  const remove = useDeleteActionDefinition();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const loading = protocols.isPending || rules.isPending;

  const close = () => {
    setConfirming(false);
    setFailure(null);
    onClose();
  };

  return (
    <SideDrawer open={action !== null} onClose={close} title="Confirm Action Dependencies Before Delete">
      {action && (
        <Box>
          <Typography gutterBottom>
            Action: <strong>{action.name}</strong>
          </Typography>
          {loading && <LinearProgress />}
          {(protocols.isError || rules.isError) && (
            <Alert severity="error">The dependencies could not be loaded.</Alert>
          )}
          <Dependents
            title="Protocols"
            names={protocols.data?.map((protocol) => `${protocol.name} (#${protocol.protocolId})`)}
            empty="No protocol uses this action."
          />
          <Dependents title="Rules" names={rules.data?.map((rule) => rule.name)} empty="No rule uses this action." />
          {failure && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {failure}
            </Alert>
          )}
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 2 }}>
            <Button onClick={close}>Cancel</Button>
            <Button variant="contained" color="error" disabled={loading} onClick={() => setConfirming(true)}>
              Continue
            </Button>
          </Box>
        </Box>
      )}
      <ConfirmDialog
        open={confirming}
        title="Delete Action Definition"
        text={AUTOMATION_MESSAGES.actionDeleteConfirm}
        onConfirm={() =>
          id
            ? remove.mutateAsync(id).then(close, (error: Error) => {
                setConfirming(false);
                setFailure(deleteFailureText(error));
              })
            : undefined
        }
        onCancel={() => setConfirming(false)}
      />
    </SideDrawer>
  );
}

function Dependents({ title, names, empty }: { title: string; names: string[] | undefined; empty: string }) {
  return (
    <Box sx={{ mt: 2 }} component="section" aria-label={title}>
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      {names && names.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {empty}
        </Typography>
      )}
      {names && names.length > 0 && (
        <List dense disablePadding>
          {names.map((name) => (
            <ListItem key={name} disableGutters>
              <ListItemText primary={name} />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}

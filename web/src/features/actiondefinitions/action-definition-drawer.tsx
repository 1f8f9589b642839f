import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { SideDrawer } from '../../components/side-drawer';
import { useActionDefinition, type ActionDefinition } from './api';
import { ActionDefinitionForm } from './action-definition-form';
import { isReadOnlyAction } from './action-definition-values';

export interface ActionDefinitionDrawerProps {
  id: string | null;
  tenantId: string | null;
  onCreated: (saved: ActionDefinition) => void;
  onClose: () => void;
}

/** Edit Action Definition / Create Action Definition (spec 002 §2), addressed by `?actionDefinitionId=`. */
export default function ActionDefinitionDrawer({ id, tenantId, onCreated, onClose }: ActionDefinitionDrawerProps) {
  const definition = useActionDefinition(id);
  const creating = id === 'new';
  const readOnly = isReadOnlyAction(definition.data);
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      title={creating ? 'Create Action Definition' : 'Edit Action Definition'}
    >
      {!creating && definition.isPending && <LinearProgress />}
      {!creating && definition.isError && (
        <Typography color="text.secondary">This action definition does not exist.</Typography>
      )}
      {readOnly && (
        <Alert severity="info" sx={{ mb: 1 }}>
          Built-in actions cannot be edited or deleted.
        </Alert>
      )}
      {id !== null && (creating || definition.data) && (
        <ActionDefinitionForm
          key={id}
          id={id}
          definition={definition.data}
          tenantId={tenantId}
          readOnly={readOnly}
          onSaved={(saved) => (creating ? onCreated(saved) : undefined)}
          onClose={onClose}
        />
      )}
    </SideDrawer>
  );
}

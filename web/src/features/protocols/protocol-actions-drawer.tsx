import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { DRAWER_WIDE_WIDTH } from '@cfs/contracts/constants';
import { WORK_UNIT_EVENT_OPTIONS } from '@cfs/contracts/protocols';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { RowActionButtons } from '../../components/grid-columns';
import { SideDrawer } from '../../components/side-drawer';
import { useDrawerParam } from '../../lib/url-state';
import { useDeleteProtocolAction, useProtocol, useProtocolActions, type ProtocolAction } from './api';
import ProtocolActionDrawer from './protocol-action-drawer';

const eventName = (id: number) => WORK_UNIT_EVENT_OPTIONS.find((option) => option.id === id)?.name ?? String(id);

/** A protocol's actions (spec 002 §2), by event and in the order they run; `?protocolActionsId=&protocolActionId=`. */
export default function ProtocolActionsDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const protocol = useProtocol(id);
  const steps = useProtocolActions(protocol.data?.protocolId);
  const editor = useDrawerParam('protocolActionId');
  const deleting = useItemQuestion<ProtocolAction>();
  const remove = useDeleteProtocolAction();
  const rows = steps.data?.rows ?? [];
  return (
    <SideDrawer
      open={id !== null}
      onClose={onClose}
      width={DRAWER_WIDE_WIDTH}
      title={`Protocol Actions${protocol.data ? `: ${protocol.data.name}` : ''}`}
    >
      {(protocol.isPending || steps.isPending) && <LinearProgress />}
      {protocol.isError && <Typography color="text.secondary">This protocol does not exist.</Typography>}
      {protocol.data && (
        <>
          <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 1 }}>
            <Button startIcon={<AddIcon />} variant="contained" onClick={() => editor.open('new')}>
              Create Protocol Action
            </Button>
          </Stack>
          {steps.isSuccess && rows.length === 0 && (
            <Typography color="text.secondary">This protocol has no actions yet.</Typography>
          )}
          {rows.length > 0 && (
            <Table size="small" aria-label="Protocol actions">
              <TableHead>
                <TableRow>
                  <TableCell>Event</TableCell>
                  <TableCell>Sequence</TableCell>
                  <TableCell>Action</TableCell>
                  <TableCell>Summary</TableCell>
                  <TableCell>Run Automatically</TableCell>
                  <TableCell>Repeatable</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((step) => (
                  <TableRow key={step.protocolActionId} hover>
                    <TableCell>{eventName(step.workUnitEventTypeId)}</TableCell>
                    <TableCell>{step.sequence}</TableCell>
                    <TableCell>{step.actionDefinition?.name ?? ''}</TableCell>
                    <TableCell>{step.summary ?? ''}</TableCell>
                    <TableCell>{step.runAutomatically ? 'Yes' : 'No'}</TableCell>
                    <TableCell>{step.repeatable ? 'Yes' : 'No'}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <RowActionButtons
                        actions={[
                          {
                            label: 'Edit Protocol Action',
                            name: `Edit ${step.actionDefinition?.name ?? 'protocol action'}`,
                            icon: <EditIcon fontSize="small" />,
                            onClick: () => editor.open(step.protocolActionId),
                          },
                          {
                            label: 'Delete Protocol Action',
                            name: `Delete ${step.actionDefinition?.name ?? 'protocol action'}`,
                            icon: <DeleteIcon fontSize="small" />,
                            color: 'error',
                            onClick: () => deleting.ask(step),
                          },
                        ]}
                      />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <ProtocolActionDrawer
            id={editor.openId}
            protocol={protocol.data}
            step={rows.find((step) => step.protocolActionId === editor.openId)}
            onCreated={(saved) => editor.open(saved.protocolActionId, { replace: true })}
            onClose={editor.close}
          />
        </>
      )}
      <ItemConfirmDialog
        question={deleting}
        title="Delete Protocol Action"
        text={(step) =>
          `Are you sure you want to delete the protocol action "${step.actionDefinition?.name ?? ''}" (${eventName(step.workUnitEventTypeId)})?`
        }
        onConfirm={(step) => remove.mutateAsync(step)}
      />
    </SideDrawer>
  );
}

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { OPERATION_RESULT_TYPES, OPERATION_TYPES } from '@cfs/contracts/fleet';
import { PACKAGE_MESSAGES } from '@cfs/contracts/packages';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { RowActionButtons } from '../../components/grid-columns';
import { enumLabel } from '../../components/enum-label';
import { InlineFormCard, useInlineEditor } from '../../components/inline-editor';
import { useDeleteOperation, type Operation, type PackageDetail } from './api';
import { OperationForm } from './operation-form';
import { frequenciesText } from './package-labels';

/** The package's operations (spec 002 §3 Operation): a list, and the form of the one being added or edited above it. */
export function OperationsTab({ pkg }: { pkg: PackageDetail }) {
  const editor = useInlineEditor<Operation>((row) => row.operationId);
  const deleting = useItemQuestion<Operation>();
  const remove = useDeleteOperation(pkg.packageId);
  return (
    <Box>
      {editor.editing !== null ? (
        <InlineFormCard
          label="Operation"
          title={editor.item ? `Edit Operation: ${editor.item.name}` : 'Add Operation'}
          onCancel={editor.close}
        >
          <OperationForm
            key={editor.key}
            packageId={pkg.packageId}
            operation={editor.item}
            onSaved={editor.saved}
            onClose={editor.close}
          />
        </InlineFormCard>
      ) : (
        <Button
          variant="contained"
          size="small"
          startIcon={<AddIcon />}
          sx={{ mb: 2 }}
          onClick={() => editor.open('new')}
        >
          Add Operation
        </Button>
      )}
      {pkg.operations.length === 0 ? (
        <Typography color="text.secondary">No operations yet.</Typography>
      ) : (
        <Table size="small" aria-label="Operations">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Type</TableCell>
              <TableCell>Frequencies</TableCell>
              <TableCell>Default Interval</TableCell>
              <TableCell>Result</TableCell>
              <TableCell>Parameters</TableCell>
              <TableCell align="right" />
            </TableRow>
          </TableHead>
          <TableBody>
            {pkg.operations.map((operation) => (
              <TableRow key={operation.operationId} hover selected={editor.item?.operationId === operation.operationId}>
                <TableCell>{operation.name}</TableCell>
                <TableCell>{enumLabel(OPERATION_TYPES, operation.operationType)}</TableCell>
                <TableCell>{frequenciesText(operation.frequencyDefinitions)}</TableCell>
                <TableCell>{operation.defaultInterval}</TableCell>
                <TableCell>{enumLabel(OPERATION_RESULT_TYPES, operation.operationResultTypeId)}</TableCell>
                <TableCell>
                  {operation.parameterDefinitions.map((parameter) => String(parameter.Name)).join(', ')}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <RowActionButtons
                    actions={[
                      {
                        label: 'Edit',
                        name: `Edit ${operation.name}`,
                        icon: <EditIcon fontSize="small" />,
                        onClick: () => editor.open(operation),
                      },
                      {
                        label: 'Delete',
                        name: `Delete ${operation.name}`,
                        icon: <DeleteIcon fontSize="small" />,
                        color: 'error',
                        onClick: () => deleting.ask(operation),
                      },
                    ]}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ItemConfirmDialog
        question={deleting}
        title={(operation) => `Delete Operation: ${operation.name}`}
        text={PACKAGE_MESSAGES.operationDeleteConfirm}
        onConfirm={(operation) =>
          remove.mutateAsync(operation.operationId).finally(() => {
            if (editor.item?.operationId === operation.operationId) editor.close();
          })
        }
      />
    </Box>
  );
}

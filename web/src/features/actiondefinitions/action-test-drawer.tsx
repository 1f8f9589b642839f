import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ClearIcon from '@mui/icons-material/Clear';
import { MAX_TEST_PAIRS, parameterNames } from '@cfs/contracts/action-definitions';
import { SideDrawer } from '../../components/side-drawer';
import { isGuid, quote } from '@cfs/contracts/values/odata';
import { useTenantId } from '../../lib/use-tenant-id';
import { useTestActionDefinition, type ActionDefinition } from './api';
import { canAddTestPair, testBody, type TestPair } from './action-definition-values';
import { ActionHistoryList } from './action-history-list';

/** How often the test's history is read until its run shows. */
const TEST_HISTORY_POLL_MS = 1000;

/**
 * Test Action Definition {name} (spec 002 §2, §4, §5): a value per input parameter and up to seven
 * extra pairs; Test runs the action once and its history panel follows the test message's id.
 */
export default function ActionTestDrawer({
  action,
  onClose,
}: {
  action: ActionDefinition | null;
  onClose: () => void;
}) {
  return (
    <SideDrawer open={action !== null} onClose={onClose} title={`Test Action Definition ${action?.name ?? ''}`}>
      {action && <ActionTestForm key={action.actionDefinitionId} action={action} />}
    </SideDrawer>
  );
}

function ActionTestForm({ action }: { action: ActionDefinition }) {
  const names = parameterNames(action.inputParameters);
  const [values, setValues] = useState<Record<string, string>>({});
  const [pairs, setPairs] = useState<TestPair[]>([]);
  const [messageId, setMessageId] = useState<string | null>(null);
  const test = useTestActionDefinition(action.actionDefinitionId);
  // A shared action runs its test for the tenant the user works in.
  const routeTenantId = useTenantId();
  const tenantId = action.tenantId ?? (isGuid(routeTenantId) ? routeTenantId : null);
  const setPair = (index: number, change: Partial<TestPair>) =>
    setPairs((current) => current.map((pair, at) => (at === index ? { ...pair, ...change } : pair)));

  const run = async () => {
    setMessageId(null);
    const answer = await test.mutateAsync(testBody(action.inputParameters, values, pairs, tenantId)).catch(() => null);
    if (answer) setMessageId(answer.id);
  };

  return (
    <Box>
      <Typography variant="subtitle1" component="h3">
        Input Parameters
      </Typography>
      {names.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          This action takes no input parameters.
        </Typography>
      )}
      {names.map((name) => (
        <TextField
          key={name}
          fullWidth
          margin="dense"
          label={name}
          value={values[name] ?? ''}
          onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
        />
      ))}

      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mt: 2 }}>
        <Typography variant="subtitle1" component="h3">
          Extra Parameters
        </Typography>
        <Button
          size="small"
          startIcon={<AddIcon />}
          disabled={!canAddTestPair(pairs)}
          onClick={() => setPairs((current) => [...current, { param: '', value: '' }])}
        >
          Add Parameter
        </Button>
      </Box>
      <Typography variant="caption" color="text.secondary">
        Up to {MAX_TEST_PAIRS} param/value pairs. Placeholders are case-sensitive.
      </Typography>
      {pairs.map((pair, index) => (
        <Box
          key={index}
          role="group"
          aria-label={`Extra parameter ${index + 1}`}
          sx={{ display: 'flex', gap: 1, alignItems: 'center' }}
        >
          <TextField
            margin="dense"
            size="small"
            label="Param"
            value={pair.param}
            onChange={(event) => setPair(index, { param: event.target.value })}
            sx={{ flex: 1 }}
          />
          <TextField
            margin="dense"
            size="small"
            label="Value"
            value={pair.value}
            onChange={(event) => setPair(index, { value: event.target.value })}
            sx={{ flex: 2 }}
          />
          <Tooltip title="Remove">
            <IconButton
              aria-label="Remove"
              onClick={() => setPairs((current) => current.filter((_pair, at) => at !== index))}
            >
              <ClearIcon />
            </IconButton>
          </Tooltip>
        </Box>
      ))}

      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
        <Button variant="contained" onClick={() => void run()} disabled={test.isPending}>
          Test
        </Button>
      </Box>

      <Divider sx={{ my: 2 }} />
      <Typography variant="subtitle1" component="h3" gutterBottom>
        Action History
      </Typography>
      {messageId === null ? (
        <Typography variant="body2" color="text.secondary">
          Run a test to see its history here.
        </Typography>
      ) : (
        <ActionHistoryList
          filter={`messageId eq ${quote(messageId)}`}
          pollMs={TEST_HISTORY_POLL_MS}
          emptyText="Waiting for the test's run…"
        />
      )}
    </Box>
  );
}

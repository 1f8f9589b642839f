import { useState } from 'react';
import { Link as RouterLink } from '../../lib/router';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { LINK_SEARCH_DEBOUNCE_MS } from '@cfs/contracts/communications';
import { STATE_LABELS } from '@cfs/contracts/values/work-units';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import {
  useLinkWorkUnits,
  useUnlinkWorkUnit,
  useWorkUnitChoices,
  type Communication,
  type WorkUnitChoice,
} from './api';

const choiceLabel = (unit: Pick<WorkUnitChoice, 'workUnitId' | 'title'>) => `#${unit.workUnitId} ${unit.title}`;

/**
 * The work units a communication is about (spec 001 §2 "linked work units (search to add,
 * remove)"): a search over the work units the user may see, of the communication's tenant,
 * 500 ms after the last key.
 */
export function LinkedWorkUnits({ communication, canEdit }: { communication: Communication; canEdit: boolean }) {
  const linked = communication.workUnits ?? [];
  const [input, setInput] = useState('');
  const [chosen, setChosen] = useState<WorkUnitChoice | null>(null);
  const term = useDebouncedValue(input, LINK_SEARCH_DEBOUNCE_MS);
  const searching = chosen !== null && input === choiceLabel(chosen) ? '' : term;
  const choices = useWorkUnitChoices(communication.tenantId, searching);
  const link = useLinkWorkUnits(communication.workUnitCommunicationId, () => {
    setChosen(null);
    setInput('');
  });
  const unlink = useUnlinkWorkUnit(communication.workUnitCommunicationId);
  const options = (choices.data?.rows ?? []).filter(
    (unit) => !linked.some((existing) => existing.workUnitId === unit.workUnitId),
  );

  const add = () => {
    if (!chosen) return;
    link.mutate([chosen.workUnitId]);
  };

  return (
    <Box>
      {canEdit && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          <Autocomplete<WorkUnitChoice, false, false, false>
            sx={{ flex: 1 }}
            options={options}
            value={chosen}
            loading={choices.isFetching}
            // The list API searched already.
            filterOptions={(all) => all}
            getOptionLabel={choiceLabel}
            getOptionKey={(unit) => unit.workUnitId}
            isOptionEqualToValue={(option, current) => option.workUnitId === current.workUnitId}
            noOptionsText={input.trim() ? 'No work units found' : 'Type a title or an id'}
            inputValue={input}
            onInputChange={(_event, text) => setInput(text)}
            onChange={(_event, unit) => setChosen(unit)}
            renderInput={(params) => <TextField {...params} size="small" label="Search work units" />}
          />
          <Button variant="outlined" onClick={add} disabled={chosen === null || link.isPending}>
            Add
          </Button>
        </Box>
      )}
      {linked.length === 0 ? (
        <Typography color="text.secondary">No linked work units.</Typography>
      ) : (
        <List dense aria-label="Linked work units">
          {linked.map((unit) => (
            <ListItem
              key={unit.workUnitId}
              divider
              secondaryAction={
                canEdit ? (
                  <Tooltip title="Remove">
                    <span>
                      <IconButton
                        edge="end"
                        aria-label={`Remove work unit #${unit.workUnitId}`}
                        disabled={unlink.isPending}
                        onClick={() => unlink.mutate(unit.workUnitId)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                ) : undefined
              }
            >
              <ListItemText
                primary={
                  <Link component={RouterLink} to={`/${unit.tenantId}/workunitsv2?workUnitId=${unit.workUnitId}`}>
                    {choiceLabel(unit)}
                  </Link>
                }
                secondary={[unit.tenant?.name, STATE_LABELS[unit.stateId] ?? 'unknown'].filter(Boolean).join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}

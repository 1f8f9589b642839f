import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import FilterListIcon from '@mui/icons-material/FilterList';
import type { FilterItem } from '../../lib/list-query';
import type { FiltersChange } from '../../lib/list-state';
import { useFilterChips } from './use-filter-chips';
import { otherFilterChips, type ChipField } from './work-unit-filters';

export interface WorkUnitFilterBarProps {
  filters: readonly FilterItem[];
  onChange: (change: FiltersChange) => void;
  protocolId: number | null;
  onClearProtocol: () => void;
}

/** The filter chips above the work units grid (spec 001 §2). */
export function WorkUnitFilterBar({ filters, onChange, protocolId, onClearProtocol }: WorkUnitFilterBarProps) {
  const chips = useFilterChips(filters, onChange);
  const { draft } = chips;
  return (
    <Box
      role="toolbar"
      aria-label="Filters"
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}
    >
      <FilterListIcon color="action" />
      {chips.chips.map((chip) => (
        <Chip
          key={chip.field}
          label={chip.label}
          color="primary"
          variant="outlined"
          onClick={() => chips.edit(chip.field)}
          onDelete={() => chips.remove(chip.field)}
        />
      ))}
      {otherFilterChips(filters).map((chip) => (
        <Chip
          key={chip.field}
          label={chip.label}
          color="primary"
          variant="outlined"
          onDelete={() => onChange((current) => current.filter((item) => item.field !== chip.field))}
        />
      ))}
      {protocolId !== null && (
        <Chip label={`Protocol #${protocolId}`} color="secondary" variant="outlined" onDelete={onClearProtocol} />
      )}
      <Button size="small" startIcon={<AddIcon />} onClick={chips.add}>
        Add Filter
      </Button>
      {!chips.isDefault && (
        <Button size="small" onClick={chips.reset}>
          Reset Filters
        </Button>
      )}
      {chips.hidesFinished && (
        <Typography variant="caption" color="text.secondary">
          Resolved, Closed and Canceled work units are hidden.
        </Typography>
      )}

      <Dialog open={draft !== null} onClose={chips.cancel} maxWidth="xs" fullWidth>
        <DialogTitle>{draft?.adding ? 'Add Filter' : 'Edit Filter'}</DialogTitle>
        <DialogContent>
          <TextField
            select
            fullWidth
            margin="normal"
            label="Field"
            value={draft?.field ?? ''}
            disabled={!draft?.adding}
            onChange={(event) => chips.setField(event.target.value as ChipField)}
          >
            {chips.fieldOptions.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            fullWidth
            margin="normal"
            label="Values"
            value={(draft?.values ?? []).map(String)}
            error={chips.error !== null}
            helperText={chips.error}
            slotProps={{
              select: {
                multiple: true,
                renderValue: (selected) =>
                  (selected as string[])
                    .map((text) => chips.valueOptions.find((option) => String(option.value) === text)?.label ?? text)
                    .join(', '),
              },
            }}
            onChange={(event) => {
              const texts: unknown = event.target.value;
              const chosen = Array.isArray(texts) ? texts.map(String) : String(texts).split(',');
              chips.setValues(
                chips.valueOptions
                  .filter((option) => chosen.includes(String(option.value)))
                  .map((option) => option.value),
              );
            }}
          >
            {chips.valueOptions.map((option) => (
              <MenuItem key={String(option.value)} value={String(option.value)}>
                <Checkbox size="small" checked={(draft?.values ?? []).includes(option.value)} />
                <ListItemText primary={option.label} />
              </MenuItem>
            ))}
          </TextField>
        </DialogContent>
        <DialogActions>
          <Button onClick={chips.cancel}>Cancel</Button>
          <Button variant="contained" onClick={chips.apply}>
            Apply
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

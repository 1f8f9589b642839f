import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FilterListIcon from '@mui/icons-material/FilterList';
import {
  COMMUNICATION_STATUSES,
  COMMUNICATION_STATUS_LABELS,
  type CommunicationStatus,
} from '@cfs/contracts/communications';
import type { FilterItem } from '../../lib/list-query';
import type { FiltersChange } from '../../lib/list-state';
import { useTenantsLookup } from '../../lib/lookups';
import { DateFilterField } from '../../components/date-filter-field';
import {
  activeFilterCount,
  DATE_RANGES,
  overdueFilter,
  rangeFilter,
  setOverdueFilter,
  setRangeFilter,
  setStatusFilter,
  setTenantFilter,
  statusFilter,
  tenantFilter,
} from './communication-filters';

const dateFieldWidth = { width: { xs: 'auto', sm: 190 }, flex: { xs: '1 1 0', sm: '0 0 auto' }, minWidth: 0 } as const;

export interface CommunicationFilterBarProps {
  filters: readonly FilterItem[];
  onChange: (change: FiltersChange) => void;
}

/**
 * The communications filters (spec 001 §2 "A legacy page has filters for tenant, status and the
 * created, next-update and resolved date ranges"; 000 §7): one panel above the grid, beside the
 * grid's own search on title or current impact, plus an Overdue switch. Every choice is part of
 * the list state in the address, so a link reproduces it.
 */
export function CommunicationFilterBar({ filters, onChange }: CommunicationFilterBarProps) {
  const tenants = useTenantsLookup();
  const statuses = statusFilter(filters);
  const count = activeFilterCount(filters);
  return (
    <Paper variant="outlined" role="group" aria-label="Filters" sx={{ p: 1.5, mb: 1.5 }}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}>
        <FilterListIcon color="action" />
        <TextField
          select
          size="small"
          label="Tenant"
          value={tenantFilter(filters)}
          onChange={(event) => {
            // Read now: the controlled input is put back before the change below is applied.
            const tenantId = event.target.value;
            onChange((current) => setTenantFilter(current, tenantId));
          }}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="">
            <em>All tenants</em>
          </MenuItem>
          {(tenants.data ?? []).map((tenant) => (
            <MenuItem key={tenant.tenantId} value={tenant.tenantId}>
              {tenant.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Status"
          value={statuses}
          sx={{ minWidth: 200, maxWidth: 320 }}
          slotProps={{
            select: {
              multiple: true,
              renderValue: (selected) =>
                (selected as CommunicationStatus[]).map((status) => COMMUNICATION_STATUS_LABELS[status]).join(', '),
            },
          }}
          onChange={(event) => {
            const chosen: unknown = event.target.value;
            const texts = Array.isArray(chosen) ? chosen.map(String) : String(chosen).split(',');
            onChange((current) =>
              setStatusFilter(
                current,
                COMMUNICATION_STATUSES.filter((status) => texts.includes(status)),
              ),
            );
          }}
        >
          {COMMUNICATION_STATUSES.map((status) => (
            <MenuItem key={status} value={status}>
              <Checkbox size="small" checked={statuses.includes(status)} />
              <ListItemText primary={COMMUNICATION_STATUS_LABELS[status]} />
            </MenuItem>
          ))}
        </TextField>
        {DATE_RANGES.map((range) => (
          // A whole row each on a phone, so that a range never reaches past the card.
          <Box
            key={range.field}
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 0.5,
              flex: { xs: '1 1 100%', sm: '0 0 auto' },
              minWidth: 0,
            }}
          >
            <DateFilterField
              label={`${range.label} from`}
              value={rangeFilter(filters, range.field, 'from')}
              onChange={(day) => onChange((current) => setRangeFilter(current, range.field, 'from', day))}
              sx={dateFieldWidth}
            />
            <Typography variant="body2" color="text.secondary">
              –
            </Typography>
            <DateFilterField
              label={`${range.label} to`}
              value={rangeFilter(filters, range.field, 'to')}
              onChange={(day) => onChange((current) => setRangeFilter(current, range.field, 'to', day))}
              sx={dateFieldWidth}
            />
          </Box>
        ))}
        <FormControlLabel
          control={
            <Switch
              size="small"
              checked={overdueFilter(filters)}
              onChange={(event) => {
                const overdue = event.target.checked;
                onChange((current) => setOverdueFilter(current, overdue));
              }}
            />
          }
          label="Overdue"
        />
        {count > 0 && (
          <Button size="small" onClick={() => onChange([])}>
            Clear Filters ({count})
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTenantsLookup } from '../lib/lookups';

/** The choice's value for every tenant the user has; any other value is the tenant in the path. */
const ALL = 'all';
const PATH = 'path';
export const ALL_TENANTS_LABEL = 'All tenants';

export interface TenantScopeSelectProps {
  /** The tenant in the path. */
  tenantId: string;
  allTenants: boolean;
  onChange: (allTenants: boolean) => void;
}

/**
 * A grid toolbar's choice between the tenant in the path and "All tenants". Shown only
 * to users with several tenants: for the others both choices list the same rows.
 */
export function TenantScopeSelect({ tenantId, allTenants, onChange }: TenantScopeSelectProps) {
  const tenants = useTenantsLookup().data ?? [];
  if (tenants.length < 2) return null;
  const name = tenants.find((tenant) => tenant.tenantId.toLowerCase() === tenantId.toLowerCase())?.name;
  return (
    <TextField
      select
      size="small"
      label="Tenant"
      value={allTenants ? ALL : PATH}
      onChange={(event) => onChange(event.target.value === ALL)}
      sx={{ minWidth: 160 }}
    >
      {/* The path names a tenant the user may use (the route guard sends others home); its name
          is missing only while it is disabled, and a name is what the user reads, never an id. */}
      <MenuItem value={PATH}>{name ?? 'This tenant'}</MenuItem>
      <MenuItem value={ALL}>{ALL_TENANTS_LABEL}</MenuItem>
    </TextField>
  );
}

import Chip from '@mui/material/Chip';
import { tokenStatus } from '@cfs/contracts/tokens';
import type { TokenGrant } from './api';

/** Active unless revokedOn is set (spec 001 §4 Token). */
export function grantStatus(grant: Pick<TokenGrant, 'revokedOn'>): 'Active' | 'Revoked' {
  return tokenStatus({ revokedOn: grant.revokedOn === null ? null : new Date(grant.revokedOn) });
}

export function TokenStatusChip({ grant }: { grant: Pick<TokenGrant, 'revokedOn'> }) {
  const status = grantStatus(grant);
  return (
    <Chip
      size="small"
      label={status}
      color={status === 'Active' ? 'success' : 'default'}
      variant={status === 'Active' ? 'filled' : 'outlined'}
    />
  );
}

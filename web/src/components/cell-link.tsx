import type { ReactNode } from 'react';
import Link from '@mui/material/Link';

/**
 * A clickable title in a grid cell that opens the item (spec 001 §2 "Selecting a title sets the
 * workUnitId query parameter") without also triggering the row's own click.
 *
 * @example
 *   renderCell: ({ row }) => <CellLink onClick={() => drawer.open(row.workUnitId)}>{row.title}</CellLink>
 */
export function CellLink({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Link
      component="button"
      type="button"
      variant="body2"
      sx={{ textAlign: 'left', verticalAlign: 'baseline' }}
      onClick={(event) => {
        event.stopPropagation();
        onClick();
      }}
    >
      {children}
    </Link>
  );
}

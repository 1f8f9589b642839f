import type { ReactNode } from 'react';
import Link from '@mui/material/Link';
import { opensElsewhere } from '../lib/shortcuts';

/**
 * A clickable title in a grid cell that opens the item (spec 001 §2 "Selecting a title sets the
 * workUnitId query parameter") without also triggering the row's own click. With `href` (the
 * address of the open item, `drawer.href(id)`) it is a real link: a plain click opens the drawer
 * in place, Ctrl, ⌘ or middle click open the item in a new tab.
 *
 * @example
 *   renderCell: ({ row }) => <CellLink href={drawer.href(row.workUnitId)} onClick={() => drawer.open(row.workUnitId)}>{row.title}</CellLink>
 */
export function CellLink({ href, onClick, children }: { href?: string; onClick: () => void; children: ReactNode }) {
  const shared = { variant: 'body2', sx: { textAlign: 'left', verticalAlign: 'baseline' } } as const;
  if (href === undefined) {
    return (
      <Link
        component="button"
        type="button"
        {...shared}
        onClick={(event) => {
          event.stopPropagation();
          onClick();
        }}
      >
        {children}
      </Link>
    );
  }
  return (
    <Link
      href={href}
      {...shared}
      onClick={(event) => {
        event.stopPropagation();
        if (opensElsewhere(event)) return;
        event.preventDefault();
        onClick();
      }}
    >
      {children}
    </Link>
  );
}

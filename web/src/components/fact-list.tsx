import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

/**
 * Read-only facts as a definition list: each name (`dt`) in a column, its value (`dd`) beside it,
 * as drawers head their forms and previews show what will be sent. `wrap` is how a long value
 * breaks: between words, or anywhere (ids, addresses).
 */
export function FactList({
  children,
  wrap = 'normal',
  sx,
}: {
  children: ReactNode;
  wrap?: 'normal' | 'break-word' | 'break-all';
  sx?: SxProps<Theme>;
}) {
  return (
    <Box
      component="dl"
      sx={[
        {
          display: 'grid',
          gridTemplateColumns: 'max-content 1fr',
          columnGap: 2,
          rowGap: 0.5,
          m: 0,
          '& dt': { color: 'text.secondary' },
          '& dd': { m: 0, wordBreak: wrap },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
    </Box>
  );
}

/** The rows of a FactList from [name, value] pairs. */
export function FactRows({ rows }: { rows: readonly (readonly [string, ReactNode])[] }) {
  return rows.map(([name, value]) => (
    <Box key={name} sx={{ display: 'contents' }}>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </Box>
  ));
}

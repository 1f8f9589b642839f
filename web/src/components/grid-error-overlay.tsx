import { createContext, useContext } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { GridNoRowsOverlay, GridOverlay, type GridOverlayProps } from '@mui/x-data-grid';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';

/** The failed list call of the grid around, if its last answer was an error. */
export interface GridFailure {
  message: string;
  retry: () => void;
}

export const GridFailureContext = createContext<GridFailure | null>(null);

/** While the grid around lists by a search or filters: `clear` takes them away (null without any). */
export const GridNarrowingContext = createContext<{ clear: () => void } | null>(null);

/**
 * The grid's overlay when it has no rows: after a failed list call it says so, with the server's
 * message and Try Again, instead of "No rows" (an empty list and a failed one are different
 * answers to an operator); a list its search or filters left empty says that, with a button that
 * clears them; otherwise the Data Grid's own "No rows".
 */
export function ResourceGridNoRowsOverlay(props: GridOverlayProps) {
  const failure = useContext(GridFailureContext);
  const narrowing = useContext(GridNarrowingContext);
  if (!failure && narrowing)
    return (
      <GridOverlay {...props}>
        <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', px: 2, pointerEvents: 'auto' }}>
          <Typography color="text.secondary" variant="body2">
            {SHELL_MESSAGES.nothingMatches}
          </Typography>
          <Button size="small" onClick={narrowing.clear}>
            {SHELL_MESSAGES.clearSearchAndFilters}
          </Button>
        </Stack>
      </GridOverlay>
    );
  if (!failure) return <GridNoRowsOverlay {...props} />;
  return (
    <GridOverlay {...props}>
      <Stack role="alert" spacing={1} sx={{ alignItems: 'center', textAlign: 'center', px: 2, pointerEvents: 'auto' }}>
        <Typography color="error" variant="body2" sx={{ fontWeight: 500 }}>
          {SHELL_MESSAGES.listFailed}
        </Typography>
        {failure.message && (
          <Typography color="text.secondary" variant="body2">
            {failure.message}
          </Typography>
        )}
        <Button size="small" onClick={failure.retry}>
          {SHELL_MESSAGES.tryAgain}
        </Button>
      </Stack>
    </GridOverlay>
  );
}

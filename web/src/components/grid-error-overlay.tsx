import { createContext, useContext, type ReactNode } from 'react';
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
  if (failure)
    return (
      <GridOverlay {...props}>
        <OverlayMessage alert action={{ label: SHELL_MESSAGES.tryAgain, onClick: failure.retry }}>
          <Typography color="error" variant="body2" sx={{ fontWeight: 500 }}>
            {SHELL_MESSAGES.listFailed}
          </Typography>
          {failure.message && (
            <Typography color="text.secondary" variant="body2">
              {failure.message}
            </Typography>
          )}
        </OverlayMessage>
      </GridOverlay>
    );
  if (narrowing)
    return (
      <GridOverlay {...props}>
        <OverlayMessage action={{ label: SHELL_MESSAGES.clearSearchAndFilters, onClick: narrowing.clear }}>
          <Typography color="text.secondary" variant="body2">
            {SHELL_MESSAGES.nothingMatches}
          </Typography>
        </OverlayMessage>
      </GridOverlay>
    );
  return <GridNoRowsOverlay {...props} />;
}

/** The overlay's centred lines and its one button (the overlay itself lets clicks through; these take them). */
function OverlayMessage(props: {
  alert?: boolean;
  action: { label: string; onClick: () => void };
  children: ReactNode;
}) {
  return (
    <Stack
      {...(props.alert ? { role: 'alert' } : {})}
      spacing={1}
      sx={{ alignItems: 'center', textAlign: 'center', px: 2, pointerEvents: 'auto' }}
    >
      {props.children}
      <Button size="small" onClick={props.action.onClick}>
        {props.action.label}
      </Button>
    </Stack>
  );
}

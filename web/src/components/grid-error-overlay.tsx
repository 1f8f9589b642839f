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

/** What the grid around tells its empty overlay: each part null when it does not apply. */
export interface GridOverlayState {
  failure: GridFailure | null;
  /** While the grid lists by a search or filters: `clear` takes them away. */
  narrowing: { clear: () => void } | null;
  /** The grid's own words for an empty list, and its Create, when the area gives them. */
  empty: { message: string; create?: { label: string; onClick: () => void } } | null;
}

export const GridOverlayContext = createContext<GridOverlayState>({ failure: null, narrowing: null, empty: null });

/**
 * The grid's overlay when it has no rows: after a failed list call it says so, with the server's
 * message and Try Again, instead of "No rows" (an empty list and a failed one are different
 * answers to an operator); a list its search or filters left empty says that, with a button that
 * clears them; an empty list of an area that words it (the Resolution Center: "You have not filed
 * a request yet.") says that, with its Create; otherwise the Data Grid's own "No rows".
 */
export function ResourceGridNoRowsOverlay(props: GridOverlayProps) {
  const { failure, narrowing, empty } = useContext(GridOverlayContext);
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
  // A narrowed list and an area's own empty list: one line, and a button when there is one.
  const said = narrowing
    ? {
        line: SHELL_MESSAGES.nothingMatches,
        action: { label: SHELL_MESSAGES.clearSearchAndFilters, onClick: narrowing.clear },
      }
    : empty && { line: empty.message, action: empty.create };
  if (!said) return <GridNoRowsOverlay {...props} />;
  return (
    <GridOverlay {...props}>
      <OverlayMessage {...(said.action ? { action: said.action } : {})}>
        <Typography color="text.secondary" variant="body2">
          {said.line}
        </Typography>
      </OverlayMessage>
    </GridOverlay>
  );
}

/**
 * The overlay's centred lines and its button, if any (the overlay itself lets clicks through; these
 * take them). Inside the grid they stand as its one row and cell, as a table's "no results" row
 * does: a grid may hold rows only, and a button elsewhere in it is lost to assistive technology
 * (axe: aria-required-children).
 */
function OverlayMessage(props: {
  alert?: boolean;
  action?: { label: string; onClick: () => void };
  children: ReactNode;
}) {
  return (
    <div role="rowgroup">
      <div role="row">
        <div role="gridcell">
          <Stack
            {...(props.alert ? { role: 'alert' } : {})}
            spacing={1}
            sx={{ alignItems: 'center', textAlign: 'center', px: 2, pointerEvents: 'auto' }}
          >
            {props.children}
            {props.action && (
              <Button size="small" onClick={props.action.onClick}>
                {props.action.label}
              </Button>
            )}
          </Stack>
        </div>
      </div>
    </div>
  );
}

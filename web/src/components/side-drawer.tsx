import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { BREAKPOINTS, DRAWER_DEFAULT_WIDTH } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { ConfirmDialog } from './confirm-dialog';

/** Forms inside a drawer report whether they hold unsaved changes; the drawer asks before closing. */
interface UnsavedChangesRegistry {
  report: (reporter: string, dirty: boolean) => void;
}

const UnsavedChangesContext = createContext<UnsavedChangesRegistry | null>(null);

/**
 * Tells the enclosing `SideDrawer` that this part of its content has unsaved changes. Several
 * forms (tabs) may report; the drawer asks when any of them is dirty. Outside a drawer it does
 * nothing. `FormActions` calls it for its form.
 */
export function useReportUnsavedChanges(dirty: boolean): void {
  const registry = useContext(UnsavedChangesContext);
  const reporter = useId();
  useEffect(() => {
    if (!registry) return;
    registry.report(reporter, dirty);
    return () => registry.report(reporter, false);
  }, [registry, reporter, dirty]);
}

export interface SideDrawerProps {
  open: boolean;
  /** Closes without asking; the drawer calls it after the unsaved-changes question when needed. */
  onClose: () => void;
  title: ReactNode;
  /** Default 50vw; some drawers set their own ('75vw'). Always 100vw under 768 px. */
  width?: string;
  /** Unsaved changes known to the caller, besides those reported by forms inside. */
  dirty?: boolean;
  /** Beside the title, e.g. a footer menu or a status chip. */
  headerActions?: ReactNode;
  children: ReactNode;
}

const narrowScreen = `@media (max-width: ${BREAKPOINTS.sm - 0.05}px)`;

/**
 * The details panel of every area (spec 000 §2): right-anchored, closes on Escape or its close
 * button, and asks "There are unsaved changes. Are you sure you want to close?" first when the
 * content has unsaved changes.
 *
 * @example
 *   const drawer = useDrawerParam('locationId');
 *   <SideDrawer open={drawer.openId !== null} onClose={drawer.close} title="Edit Location">
 *     <LocationForm id={drawer.openId} onClose={drawer.close} />
 *   </SideDrawer>
 */
export function SideDrawer({ open, onClose, title, width = DRAWER_DEFAULT_WIDTH, dirty = false, headerActions, children }: SideDrawerProps) {
  const dirtyReporters = useRef(new Set<string>());
  const [asking, setAsking] = useState(false);

  const registry = useMemo<UnsavedChangesRegistry>(
    () => ({
      report: (reporter, reporterDirty) => {
        if (reporterDirty) dirtyReporters.current.add(reporter);
        else dirtyReporters.current.delete(reporter);
      },
    }),
    [],
  );

  const requestClose = useCallback(() => {
    if (dirty || dirtyReporters.current.size > 0) setAsking(true);
    else onClose();
  }, [dirty, onClose]);

  return (
    <Drawer
      anchor="right"
      open={open}
      // Escape closes (spec 000 §2); a click beside the panel does not, so no edit is lost by a stray click.
      onClose={(_event, reason) => {
        if (reason === 'escapeKeyDown') requestClose();
      }}
      slotProps={{ paper: { sx: { width, maxWidth: '100vw', [narrowScreen]: { width: '100vw' } } } }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 0 }} noWrap>
          {title}
        </Typography>
        {headerActions}
        <IconButton aria-label="Close" onClick={requestClose} edge="end">
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <Box sx={{ flex: 1, overflow: 'auto', p: 2 }}>
        <UnsavedChangesContext.Provider value={registry}>{children}</UnsavedChangesContext.Provider>
      </Box>
      <ConfirmDialog
        open={asking}
        title="Unsaved changes"
        text={SHELL_MESSAGES.unsavedChanges}
        onConfirm={() => {
          setAsking(false);
          dirtyReporters.current.clear();
          onClose();
        }}
        onCancel={() => setAsking(false)}
      />
    </Drawer>
  );
}

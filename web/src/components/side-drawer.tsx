import {
  createContext,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { useBlocker } from '../lib/router';
import { BREAKPOINTS, DRAWER_DEFAULT_WIDTH } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { isShortcut } from '../lib/shortcuts';
// Loaded with the drawer, not when first asked: the question that guards unsaved changes must not
// wait on, or fail with, a download of its own.
import ConfirmDialogPanel from './confirm-dialog-panel';
import { createUnsavedChanges, type UnsavedChanges, type UnsavedChangesGuard } from './unsaved-changes';

export type { UnsavedChangesGuard } from './unsaved-changes';

const UnsavedChangesContext = createContext<UnsavedChanges | null>(null);

/** The saves of the forms in a drawer, by part: what Ctrl+S runs. */
type SaveRegistry = Map<string, () => void>;
const SaveShortcutContext = createContext<SaveRegistry | null>(null);

/** Whether content is in a `DrawerFooter` already. */
const InFooterContext = createContext(false);

/**
 * Whether a save row here belongs in a `DrawerFooter`: it is in a `SideDrawer`, and not in a footer
 * already. `FormActions` asks, so that every drawer's Save stays in sight however long its form.
 */
export function useDrawerFooterWanted(): boolean {
  const inDrawer = useContext(UnsavedChangesContext) !== null;
  const inFooter = useContext(InFooterContext);
  return inDrawer && !inFooter;
}

/**
 * Offers a save to the enclosing `SideDrawer`'s Ctrl+S (⌘S); null while there is nothing to save
 * (the Save button is disabled). `FormActions` calls it for its form's Save.
 *
 * @example
 *   useSaveShortcut(disabled.save ? null : () => void submit(false));
 */
export function useSaveShortcut(save: (() => void) | null): void {
  const saves = useContext(SaveShortcutContext);
  const part = useId();
  // The latest save, without registering again on every render.
  const latest = useRef(save);
  useEffect(() => {
    latest.current = save;
  });
  const offered = save !== null;
  useEffect(() => {
    if (!saves || !offered) return;
    saves.set(part, () => latest.current?.());
    return () => {
      saves.delete(part);
    };
  }, [saves, part, offered]);
}

/** Outside a drawer there is nothing to lose: actions run at once. */
const NO_DRAWER: UnsavedChangesGuard = { confirmThen: (action) => action() };

/**
 * Tells the enclosing `SideDrawer` that this part of its content has unsaved changes. Several
 * forms (tabs) may report; the drawer asks when any of them is dirty. Outside a drawer it does
 * nothing. `FormActions` calls it for its form. What would be lost is not always an edit: a part
 * may word its own question, asked in place of the usual one.
 *
 * @example
 *   useReportUnsavedChanges(detail.trim() !== ''); // a note being written
 *   useReportUnsavedChanges(true, TOKEN_MESSAGES.closeWhileShown); // a token shown only once
 */
export function useReportUnsavedChanges(dirty: boolean, question?: string): void {
  const unsaved = useContext(UnsavedChangesContext);
  const part = useId();
  useEffect(() => {
    if (!unsaved) return;
    unsaved.report(part, dirty, question);
    return () => unsaved.report(part, false);
  }, [unsaved, part, dirty, question]);
}

/**
 * The enclosing `SideDrawer`'s guard, for content that drops what the drawer shows; outside a
 * drawer `confirmThen` runs the action at once.
 *
 * @example
 *   const guard = useUnsavedChangesGuard();
 *   <CellLink onClick={() => guard.confirmThen(() => setEditing(row))}>{row.name}</CellLink>
 *   <RelatedTab onOpenWorkUnit={(id) => guard.confirmThen(() => openWorkUnit(id))} />
 */
export function useUnsavedChangesGuard(): UnsavedChangesGuard {
  return useContext(UnsavedChangesContext) ?? NO_DRAWER;
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
  /** A panel shorter than the window (the Resolution Center's details: 885px). */
  maxHeight?: string;
  children: ReactNode;
}

const narrowScreen = `@media (max-width: ${BREAKPOINTS.sm - 0.05}px)`;

/**
 * The details panel of every area (spec 000 §2): right-anchored, closes on Escape or its close
 * button; Ctrl+S (⌘S) saves its forms (`useSaveShortcut`). While its content has unsaved changes (reported with `useReportUnsavedChanges`, or the
 * `dirty` prop) it asks "There are unsaved changes. Are you sure you want to close?" (Yes / No)
 * before closing, before anything its content routes through `useUnsavedChangesGuard()`, and
 * before a navigation that leaves it: the browser's Back, a menu link, the logo (the drawer's
 * open state lives in the address, so these would close it).
 *
 * @example
 *   const drawer = useDrawerParam('locationId');
 *   <SideDrawer open={drawer.openId !== null} onClose={drawer.close} title="Edit Location">
 *     <LocationForm id={drawer.openId} onClose={drawer.close} />
 *   </SideDrawer>
 */
export function SideDrawer({
  open,
  onClose,
  title,
  width = DRAWER_DEFAULT_WIDTH,
  dirty = false,
  headerActions,
  maxHeight,
  children,
}: SideDrawerProps) {
  const [question, setQuestion] = useState<{ proceed: () => void; text: string | undefined } | null>(null);
  const [hasUnsavedChanges, setHasUnsavedChanges] = useState(false);
  const [unsaved] = useState(() =>
    createUnsavedChanges({
      ask: (proceed, text) => setQuestion({ proceed, text }),
      onDirtyChange: setHasUnsavedChanges,
    }),
  );
  const [saves] = useState<SaveRegistry>(() => new Map());
  const ownPart = useId();
  // The panel is a dialog: its title names it for assistive technology (WCAG 4.1.2).
  const titleId = useId();
  useEffect(() => {
    unsaved.report(ownPart, dirty);
  }, [unsaved, ownPart, dirty]);

  const requestClose = () => unsaved.confirmThen(onClose);

  // Ctrl+S (⌘S) saves what the drawer holds, as its Save buttons would, and never opens the
  // browser's "save page" dialog. Handled by the innermost drawer only (one drawer may open
  // another, and the key reaches both): the first to see it marks it done.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || !isShortcut(event, 's')) return;
    event.preventDefault();
    for (const save of saves.values()) save();
  };

  return (
    <Drawer
      anchor="right"
      open={open}
      onKeyDown={onKeyDown}
      // Escape closes (spec 000 §2); a click beside the panel does not, so no edit is lost by a stray click.
      onClose={(_event, reason) => {
        if (reason === 'escapeKeyDown') requestClose();
      }}
      slotProps={{
        paper: {
          'aria-labelledby': titleId,
          sx: { width, maxWidth: '100vw', ...(maxHeight ? { maxHeight } : {}), [narrowScreen]: { width: '100vw' } },
        },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1 }}>
        <Typography id={titleId} variant="h6" component="h2" sx={{ flex: 1, minWidth: 0 }} noWrap>
          {title}
        </Typography>
        {headerActions}
        <IconButton aria-label="Close" onClick={requestClose} edge="end">
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <Box sx={{ flex: 1, overflow: 'auto', p: 2 }}>
        <UnsavedChangesContext.Provider value={unsaved}>
          <SaveShortcutContext.Provider value={saves}>{children}</SaveShortcutContext.Provider>
        </UnsavedChangesContext.Provider>
      </Box>
      <UnsavedChangesQuestion
        open={question !== null}
        text={question?.text}
        onYes={() => {
          setQuestion(null);
          question?.proceed();
        }}
        onNo={() => setQuestion(null)}
      />
      {/* Mounted only while it can matter: a router consults one blocker at a time, and a page
          holds several drawers (tenants: the tenant and its subscriptions). */}
      {open && hasUnsavedChanges && <LeaveBlocker unsaved={unsaved} />}
    </Drawer>
  );
}

/**
 * Asks before a navigation leaves the drawer; Yes lets it go on, No stays (Back is undone). The
 * browser asks its own question before the tab closes or reloads, which the page cannot word.
 */
function LeaveBlocker({ unsaved }: { unsaved: UnsavedChanges }) {
  const blocker = useBlocker(unsaved.shouldBlock);
  useEffect(() => {
    const askBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', askBeforeUnload);
    return () => window.removeEventListener('beforeunload', askBeforeUnload);
  }, []);
  return (
    <UnsavedChangesQuestion
      open={blocker.state === 'blocked'}
      text={blocker.state === 'blocked' ? unsaved.question() : undefined}
      onYes={() => {
        if (blocker.state === 'blocked') blocker.proceed();
      }}
      onNo={() => {
        if (blocker.state === 'blocked') blocker.reset();
      }}
    />
  );
}

/**
 * A row kept in sight at the foot of a drawer whose content is long: it sticks to the bottom of the
 * drawer's scrolling area, flush with its edge, over what scrolls under it. `FormActions` puts its
 * Save buttons in one by itself; a form with more in its row wraps the lot, as the work unit form
 * does with its save conflict. In dark mode MUI lightens a raised surface with a white overlay
 * (`--Paper-overlay`, set on the drawer's paper): the row takes the same overlay, so it is the
 * panel's colour and not the darker plain paper colour.
 *
 * @example
 *   <DrawerFooter><Alert severity="error">{conflict}</Alert><FormActions form={form} onSave={save} /></DrawerFooter>
 */
export function DrawerFooter({ children }: { children: ReactNode }) {
  return (
    <Box
      // bottom -2: over the scrolling area's padding (p: 2 above).
      sx={{
        position: 'sticky',
        bottom: (theme) => theme.spacing(-2),
        zIndex: 2,
        bgcolor: 'background.paper',
        backgroundImage: 'var(--Paper-overlay)',
        borderTop: 1,
        borderColor: 'divider',
        pb: 2,
        mt: 2,
      }}
    >
      <InFooterContext.Provider value>{children}</InFooterContext.Provider>
    </Box>
  );
}

function UnsavedChangesQuestion({
  open,
  text,
  onYes,
  onNo,
}: {
  open: boolean;
  text: string | undefined;
  onYes: () => void;
  onNo: () => void;
}) {
  return (
    <ConfirmDialogPanel
      open={open}
      title="Unsaved changes"
      text={text ?? SHELL_MESSAGES.unsavedChanges}
      onConfirm={onYes}
      onCancel={onNo}
    />
  );
}

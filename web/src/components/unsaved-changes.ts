import type { HistoryAction } from '../lib/router';

/**
 * The unsaved-changes guard of a `SideDrawer`, without React: which parts of the drawer's content
 * hold unsaved changes, the question before dropping them, and the router blocker's rule. The
 * drawer creates one and hands it to its content (`side-drawer.tsx`).
 */

/** What a drawer's content sees of its drawer's unsaved-changes guard. */
export interface UnsavedChangesGuard {
  /**
   * Runs `action` at once when nothing in the drawer holds unsaved changes; otherwise asks
   * "There are unsaved changes. Are you sure you want to close?" and runs it on Yes. Anything that
   * drops what is shown goes through it: closing, opening another item in the drawer, switching an
   * inline form to another row. A navigation the action starts is not asked about again.
   */
  confirmThen: (action: () => void) => void;
}

export interface UnsavedChanges extends UnsavedChangesGuard {
  /**
   * One part of the content (a form, a note being written) says whether it holds unsaved changes;
   * a part that would lose something else (a token shown once) gives its own question.
   */
  report: (part: string, dirty: boolean, question?: string) => void;
  hasUnsavedChanges: () => boolean;
  /** The own question of a part that holds unsaved changes, if one has one; else the drawer asks its usual one. */
  question: () => string | undefined;
  /** For the router's `useBlocker`: a navigation that leaves the drawer while something is unsaved. */
  shouldBlock: (step: NavigationStep) => boolean;
}

/** A navigation as the router's blocker sees it (`NavigationStep`). */
export interface NavigationStep {
  currentLocation: { pathname: string };
  nextLocation: { pathname: string };
  historyAction: HistoryAction;
}

export interface UnsavedChangesOptions {
  /** Shows the question (a part's own, or undefined for the usual one); `proceed` is what Yes does. */
  ask: (proceed: () => void, question: string | undefined) => void;
  /** Told when the drawer turns from clean to dirty and back. */
  onDirtyChange?: (dirty: boolean) => void;
}

/**
 * @example
 *   const unsaved = createUnsavedChanges({ ask: (proceed) => setQuestion({ proceed }) });
 *   unsaved.report('note', true);
 *   unsaved.confirmThen(close); // asks; Yes runs close
 */
export function createUnsavedChanges({ ask, onDirtyChange }: UnsavedChangesOptions): UnsavedChanges {
  const dirtyParts = new Map<string, string | undefined>();
  // Set while a confirmed (or harmless) action runs: the navigation it starts is not blocked.
  // The router consults its blocker synchronously when a navigation starts.
  let confirmed = false;
  const run = (action: () => void) => {
    confirmed = true;
    try {
      action();
    } finally {
      confirmed = false;
    }
  };
  const hasUnsavedChanges = () => dirtyParts.size > 0;
  const question = () => [...dirtyParts.values()].find((text) => text !== undefined);
  return {
    report: (part, dirty, question) => {
      const before = hasUnsavedChanges();
      if (dirty) dirtyParts.set(part, question);
      else dirtyParts.delete(part);
      if (hasUnsavedChanges() !== before) onDirtyChange?.(!before);
    },
    hasUnsavedChanges,
    question,
    confirmThen: (action) => {
      if (hasUnsavedChanges()) ask(() => run(action), question());
      else run(action);
    },
    shouldBlock: (step) => !confirmed && hasUnsavedChanges() && leavesDrawer(step),
  };
}

/**
 * Whether a navigation takes the user away from what an open drawer shows, so that its unsaved
 * changes would be lost (spec 000 §2): Back or Forward (`POP`), a menu link, the logo or another
 * item (`PUSH`), or any move to another page. A `REPLACE` on the same page is the screen writing
 * its own state into the address (the drawer's tab, the created item's id after a first Save, a
 * list's page) and passes.
 */
export function leavesDrawer({ currentLocation, nextLocation, historyAction }: NavigationStep): boolean {
  return historyAction !== 'REPLACE' || nextLocation.pathname !== currentLocation.pathname;
}

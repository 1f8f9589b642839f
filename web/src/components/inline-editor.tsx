import type { ReactNode } from 'react';
import { useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useUnsavedChangesGuard } from './side-drawer';

/**
 * Which item an inline form in a drawer edits (an existing row or 'new'), for a child list whose
 * form sits above its grid (a tenant's subscriptions, a category's subcategories). Opening another
 * item replaces the form, so it goes through the drawer's unsaved-changes question first; opening
 * the item already open does nothing. A list that creates several kinds of row from one form (a
 * communication's past and next steps) names the kind: `open('new', kind)`, and a new item of
 * another kind is another item.
 *
 * After a create, `saved(row)` makes the new row the edited one under the same key: the form stays
 * as it is and a second Save updates instead of creating. With `afterCreate: 'new'` the form starts
 * afresh on a new item of the same kind instead, for lists where one adds several rows in a row.
 *
 * @example
 *   const editor = useInlineEditor<Subscription>((row) => row.subscriptionId);
 *   {editor.editing !== null && <SubscriptionForm key={editor.key} subscription={editor.item} onSaved={editor.saved} onClose={editor.close} />}
 *   <ResourceGrid … onCreate={() => editor.open('new')} onRowClick={editor.open} />
 */
export function useInlineEditor<R, K extends string = string>(
  keyOf: (row: R) => string | number,
  options: { afterCreate?: 'edit' | 'new' } = {},
) {
  // `opened` counts the items opened: a form's save that settles after another item was opened
  // (its Save & Close still on its way when the user clicks Add again) leaves that item's form be.
  const [state, setState] = useState<{ item: R | 'new'; kind: K | undefined; key: string; opened: number } | null>(
    null,
  );
  const openings = useRef(0);
  const guard = useUnsavedChangesGuard();
  const keyFor = (item: R | 'new', kind: K | undefined) => (item === 'new' ? `new:${kind ?? ''}` : String(keyOf(item)));
  const isOpen = (item: R | 'new', kind: K | undefined) =>
    state !== null && (keyFor(state.item, state.kind) === keyFor(item, kind) || state.key === keyFor(item, kind));
  /** The item open when this render's callbacks were handed to its form. */
  const rendered = state?.opened;
  return {
    editing: state?.item ?? null,
    /** The row being edited, or undefined for a new one. */
    item: state === null || state.item === 'new' ? undefined : state.item,
    /** The kind of new item the form creates (as given to `open`). */
    kind: state?.kind,
    /** A key that changes with the edited item, so its form starts afresh. */
    key: state?.key,
    /** Opens `next` once the unsaved-changes question allows it; `then` runs only if it opened (an address to follow it). */
    open(next: R | 'new', kind?: K, then?: () => void) {
      if (isOpen(next, kind)) return;
      guard.confirmThen(() => {
        openings.current += 1;
        setState({ item: next, kind, key: keyFor(next, kind), opened: openings.current });
        then?.();
      });
    },
    saved(row: R) {
      if (options.afterCreate === 'new' && state?.item === 'new') {
        // A fresh key (the saved row's): the form mounts again, empty, for the next item of the same kind.
        setState((current) =>
          current === null || current.opened !== rendered
            ? current
            : { ...current, item: 'new', key: `${keyFor('new', current.kind)}#${keyOf(row)}` },
        );
        return;
      }
      setState((current) => (current === null || current.opened !== rendered ? current : { ...current, item: row }));
    },
    close() {
      setState((current) => (current === null || current.opened !== rendered ? current : null));
    },
  };
}

/** The frame of an inline form: its title and a Cancel that asks first when the form holds unsaved changes. */
export function InlineFormCard({
  label,
  title,
  onCancel,
  children,
}: {
  label: string;
  title: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  const guard = useUnsavedChangesGuard();
  return (
    <Paper
      variant="outlined"
      component="form"
      noValidate
      onSubmit={(event) => event.preventDefault()}
      sx={{ p: 2, mb: 2 }}
      aria-label={label}
    >
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {title}
        </Typography>
        <Button size="small" onClick={() => guard.confirmThen(onCancel)}>
          Cancel
        </Button>
      </Box>
      {children}
    </Paper>
  );
}

import type { ReactNode } from 'react';
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useUnsavedChangesGuard } from './side-drawer';

/**
 * Which item an inline form in a drawer edits (an existing row or 'new'), for a child list whose
 * form sits above its grid (a tenant's subscriptions, a category's subcategories). Opening another
 * item replaces the form, so it goes through the drawer's unsaved-changes question first; opening
 * the item already open does nothing. After a create, `saved(row)` makes the new row the edited
 * one under the same key: the form stays as it is and a second Save updates instead of creating.
 *
 * @example
 *   const editor = useInlineEditor<Subscription>((row) => row.subscriptionId);
 *   {editor.editing !== null && <SubscriptionForm key={editor.key} subscription={editor.item} onSaved={editor.saved} onClose={editor.close} />}
 *   <ResourceGrid … onCreate={() => editor.open('new')} onRowClick={editor.open} />
 */
export function useInlineEditor<R>(keyOf: (row: R) => string | number) {
  const [state, setState] = useState<{ item: R | 'new'; key: string } | null>(null);
  const guard = useUnsavedChangesGuard();
  const keyFor = (item: R | 'new') => (item === 'new' ? 'new' : String(keyOf(item)));
  const isOpen = (item: R | 'new') => state !== null && (keyFor(state.item) === keyFor(item) || state.key === keyFor(item));
  return {
    editing: state?.item ?? null,
    /** The row being edited, or undefined for a new one. */
    item: state === null || state.item === 'new' ? undefined : state.item,
    /** A key that changes with the edited item, so its form starts afresh. */
    key: state?.key,
    open(next: R | 'new') {
      if (!isOpen(next)) guard.confirmThen(() => setState({ item: next, key: keyFor(next) }));
    },
    saved(row: R) {
      setState((current) => (current === null ? current : { item: row, key: current.key }));
    },
    close() {
      setState(null);
    },
  };
}

/** The frame of an inline form: its title and a Cancel that asks first when the form holds unsaved changes. */
export function InlineFormCard({ label, title, onCancel, children }: { label: string; title: string; onCancel: () => void; children: ReactNode }) {
  const guard = useUnsavedChangesGuard();
  return (
    <Paper variant="outlined" component="form" noValidate onSubmit={(event) => event.preventDefault()} sx={{ p: 2, mb: 2 }} aria-label={label}>
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

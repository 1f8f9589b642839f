import { useState } from 'react';
import { useUnsavedChangesGuard } from './side-drawer';

/**
 * Which item an inline form in a drawer edits (an existing row or 'new'), for a child list whose
 * form sits above its grid (a tenant's subscriptions, a category's subcategories). Opening another
 * item replaces the form, so it goes through the drawer's unsaved-changes question first; opening
 * the item already open does nothing.
 *
 * @example
 *   const editor = useInlineEditor<Subscription>((row) => row.subscriptionId);
 *   {editor.editing !== null && <SubscriptionForm key={editor.key} subscription={editor.item} onClose={editor.close} />}
 *   <ResourceGrid … onCreate={() => editor.open('new')} onRowClick={editor.open} />
 */
export function useInlineEditor<R>(keyOf: (row: R) => string | number) {
  const [editing, setEditing] = useState<R | 'new' | null>(null);
  const guard = useUnsavedChangesGuard();
  const keyFor = (item: R | 'new') => (item === 'new' ? 'new' : String(keyOf(item)));
  return {
    editing,
    /** The row being edited, or undefined for a new one. */
    item: editing === null || editing === 'new' ? undefined : editing,
    /** A key that changes with the edited item, so its form starts afresh. */
    key: editing === null ? undefined : keyFor(editing),
    open(next: R | 'new') {
      if (editing === null || keyFor(editing) !== keyFor(next)) guard.confirmThen(() => setEditing(next));
    },
    close() {
      setEditing(null);
    },
  };
}

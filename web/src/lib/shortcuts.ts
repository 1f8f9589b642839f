/**
 * Keyboard shortcuts with Ctrl (⌘ on a Mac): Ctrl+S saves the open drawer (`SideDrawer`),
 * Ctrl+Enter sends what a text box holds (a work unit's note).
 *
 * @example
 *   onKeyDown={(event) => { if (isShortcut(event, 'Enter')) { event.preventDefault(); submit(); } }}
 */
export function isShortcut(
  event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean },
  key: string,
): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === key.toLowerCase();
}

/** A click the browser itself handles on a link (a new tab or window): Ctrl, ⌘, Shift or a button other than the main one. */
export function opensElsewhere(event: {
  button: number;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey;
}

import type { Control, FieldValues, Path } from 'react-hook-form';

/**
 * Calls `onUserChange` each time the user changes the field `name` (an input's or a controller's
 * `onChange`), and not for `reset` or `setValue`: loading a record into the form must not count as
 * a choice the user made. Answers the unsubscribe function.
 *
 * react-hook-form reports the kind of event (`type: 'change'`) through the form's `subscribe`;
 * a field that holds only `control` reaches the same report through `control._subscribe`, the
 * subscription react-hook-form's own `useWatch` is built on.
 *
 * @example
 *   useEffect(() => subscribeToUserChange(control, 'categoryId', () => setValue('subcategoryIds', [])), [control]);
 */
export function subscribeToUserChange<T extends FieldValues, TOut>(
  control: Control<T, unknown, TOut>,
  name: Path<T>,
  onUserChange: () => void,
): () => void {
  return control._subscribe({
    name,
    exact: true,
    formState: { values: true },
    callback: (data) => {
      // The event's kind is in the report at run time, not in its declared type.
      const report: { name?: string; type?: unknown } = data;
      if (report.name === name && report.type === 'change') onUserChange();
    },
  });
}

import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useFormState, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { applyServerErrors, type ServerErrorPath } from './form-server-errors';
import { formActionsDisabled } from './form-rules';
import {
  DrawerFooter,
  useDrawerFooterWanted,
  useReportUnsavedChanges,
  useSaveShortcut,
  useUnsavedChangesGuard,
} from './side-drawer';

export interface FormActionsProps<T extends FieldValues, TOut> {
  form: UseFormReturn<T, unknown, TOut>;
  /** Saves the validated values; a rejected promise (the area toasts it) keeps the form as it is. */
  onSave: (values: TOut) => Promise<unknown> | void;
  /**
   * Given: a Save & Close button. After a successful save it closes through the drawer's
   * unsaved-changes guard, which asks only when something else in the drawer is still unsaved
   * (a note being written beside the form).
   */
  onClose?: () => void;
  /** A save or a load in progress outside the form (mutation pending, item loading). */
  loading?: boolean;
  /**
   * Where a 400 answer's field texts go (see `applyServerErrors`). Without it a server field
   * lands on the form field of the same name; texts without a field show above the buttons.
   */
  serverErrorPath?: ServerErrorPath<T>;
  /** The submit label, "Save" unless the area names it (e.g. "Create" when a form creates once). */
  saveLabel?: string;
  /** Shown at the left of the buttons, e.g. a footer menu (spec 001 §2 "Change type to Change Request"). */
  leading?: ReactNode;
}

/**
 * Save and Save & Close for a react-hook-form form (spec 000 §5): Save is disabled while the form
 * is pristine or loading, Save & Close while it is pristine and untouched, or loading; both run
 * only when the form is valid (zod). After a save the saved values become the form's pristine
 * state. A rejected save's 400 field texts are put on the fields (`serverErrorPath`). Also
 * reports the form's unsaved changes to the enclosing `SideDrawer`, closes through its guard
 * (`useUnsavedChangesGuard`), offers Save to its Ctrl+S (`useSaveShortcut`), and keeps the buttons
 * in sight at the drawer's foot (`DrawerFooter`), however long the form.
 *
 * @example
 *   <FormActions form={form} onSave={(values) => save.mutateAsync(values)} onClose={drawer.close} loading={save.isPending} />
 */
export function FormActions<T extends FieldValues, TOut>({
  form,
  onSave,
  onClose,
  loading = false,
  serverErrorPath,
  saveLabel = 'Save',
  leading,
}: FormActionsProps<T, TOut>) {
  const { isDirty, touchedFields, isSubmitting, errors } = useFormState({ control: form.control });
  // What is being saved is not unsaved: while the save settles (its lists read again), the drawer
  // does not ask about it, and a click on Add beside the list opens the next form at once.
  useReportUnsavedChanges(isDirty && !isSubmitting);
  const guard = useUnsavedChangesGuard();
  const disabled = formActionsDisabled({
    isDirty,
    isTouched: Object.keys(touchedFields).length > 0,
    loading: loading || isSubmitting,
  });

  const submit = (close: boolean) =>
    form
      .handleSubmit(async (values) => {
        try {
          await onSave(values);
        } catch (error) {
          applyServerErrors(form, error, serverErrorPath);
          throw error;
        }
        // The saved values become the pristine state. flushSync renders that at once, and with it
        // the effects that report the form clean to the drawer, so the close below asks only
        // about what else in the drawer is unsaved (a note being written; spec 000 §2).
        flushSync(() => form.reset(form.getValues()));
        if (close && onClose) guard.confirmThen(onClose);
      })()
      // handleSubmit rethrows what onSave throws; the area's mutation has already reported it.
      .catch(() => undefined);

  useSaveShortcut(disabled.save ? null : () => void submit(false));

  const serverMessage = errors.root?.server?.message;
  const footer = useDrawerFooterWanted();
  const row = (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center', pt: 2 }}>
      {leading}
      {/* The message, or a spacer, keeps the buttons at the right. */}
      {leading && !serverMessage && <Box sx={{ flex: 1 }} />}
      {serverMessage && (
        <Alert severity="error" sx={{ flex: 1 }}>
          {serverMessage}
        </Alert>
      )}
      <Button variant="outlined" disabled={disabled.save} onClick={() => void submit(false)}>
        {saveLabel}
      </Button>
      {onClose && (
        <Button variant="contained" disabled={disabled.saveAndClose} onClick={() => void submit(true)}>
          Save &amp; Close
        </Button>
      )}
    </Stack>
  );
  return footer ? <DrawerFooter>{row}</DrawerFooter> : row;
}

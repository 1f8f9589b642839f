import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { FormActions } from './form-actions';

/**
 * What a drawer hands the form of one item: the item's id ('new' to create one), the tenant a new
 * item starts in (null: none), what to do with the saved item, and how to close. The form names
 * the item itself (`location`, `pkg`), undefined for a new one.
 */
export interface ItemFormProps<Item> {
  id: string;
  tenantId: string | null;
  onSaved: (saved: Item) => void;
  onClose: () => void;
}

export interface ItemFormActionsProps<T extends FieldValues, TOut, Item> {
  form: UseFormReturn<T, unknown, TOut>;
  /** The area's save of the item (`useApiMutation`), which answers the item as saved. */
  save: { mutateAsync: (values: TOut) => Promise<Item>; isPending: boolean };
  /**
   * The form's values of the saved item. Given, the form takes them as its own after a save, so
   * that it shows what the server made of the input; else it keeps the values it saved.
   */
  valuesOf?: (saved: Item) => T;
  /** Told of the saved item (a create: the drawer moves to the new item's address). */
  onSaved: (saved: Item) => void;
  onClose?: () => void;
}

/**
 * Save and Save & Close (`FormActions`) for the form of one item: Save runs the area's save of the
 * item, puts the saved item's values into the form (`valuesOf`) and hands the item to `onSaved`.
 *
 * @example
 *   <ItemFormActions form={form} save={save} valuesOf={valuesOf} onSaved={onSaved} onClose={onClose} />
 */
export function ItemFormActions<T extends FieldValues, TOut, Item>({
  form,
  save,
  valuesOf,
  onSaved,
  onClose,
}: ItemFormActionsProps<T, TOut, Item>) {
  return (
    <FormActions
      form={form}
      onSave={async (values) => {
        const saved = await save.mutateAsync(values);
        if (valuesOf) form.reset(valuesOf(saved));
        onSaved(saved);
      }}
      onClose={onClose}
      loading={save.isPending}
    />
  );
}

import { createFormControl } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { subscribeToUserChange } from './form-dependency';

interface Values {
  categoryId: number | null;
  subcategoryIds: number[];
  name: string;
}

function setup() {
  const form = createFormControl<Values>({ defaultValues: { categoryId: null, subcategoryIds: [], name: '' } });
  const cleared = vi.fn();
  const unsubscribe = subscribeToUserChange(form.control, 'categoryId', cleared);
  /** What an input or a controller's `field.onChange` does when the user picks a value. */
  const userPicks = (name: keyof Values, value: unknown) =>
    form.register(name).onChange({ target: { name, value }, type: 'change' });
  return { form, cleared, unsubscribe, userPicks };
}

describe('a dependent field (spec 000 §5: changing the chosen value clears the dependent selection)', () => {
  it('reports the user changing the dependency', async () => {
    const { cleared, userPicks } = setup();
    await userPicks('categoryId', 5);
    expect(cleared).toHaveBeenCalledTimes(1);
  });

  it('does not report a reset that loads a saved record, nor a reset back to the defaults', () => {
    const { form, cleared } = setup();
    form.reset({ categoryId: 5, subcategoryIds: [7, 8], name: 'Printer' });
    form.reset();
    expect(cleared).not.toHaveBeenCalled();
  });

  it('does not report setValue, nor the user changing another field', async () => {
    const { form, cleared, userPicks } = setup();
    form.setValue('categoryId', 9, { shouldDirty: true });
    await userPicks('name', 'Keyboard');
    await userPicks('subcategoryIds', [1]);
    expect(cleared).not.toHaveBeenCalled();
  });

  it('stops reporting once unsubscribed', async () => {
    const { cleared, unsubscribe, userPicks } = setup();
    unsubscribe();
    await userPicks('categoryId', 5);
    expect(cleared).not.toHaveBeenCalled();
  });
});

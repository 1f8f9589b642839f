import { describe, expect, it } from 'vitest';
import { formActionsDisabled } from './form-rules';

describe('Save and Save & Close (spec 000 §5)', () => {
  it('disables both on a pristine, untouched form', () => {
    expect(formActionsDisabled({ isDirty: false, isTouched: false, loading: false })).toEqual({
      save: true,
      saveAndClose: true,
    });
  });

  it('enables Save & Close but not Save on a touched, pristine form', () => {
    expect(formActionsDisabled({ isDirty: false, isTouched: true, loading: false })).toEqual({
      save: true,
      saveAndClose: false,
    });
  });

  it('enables both on a changed form', () => {
    expect(formActionsDisabled({ isDirty: true, isTouched: false, loading: false })).toEqual({
      save: false,
      saveAndClose: false,
    });
    expect(formActionsDisabled({ isDirty: true, isTouched: true, loading: false })).toEqual({
      save: false,
      saveAndClose: false,
    });
  });

  it('disables both while loading', () => {
    expect(formActionsDisabled({ isDirty: true, isTouched: true, loading: true })).toEqual({
      save: true,
      saveAndClose: true,
    });
  });
});

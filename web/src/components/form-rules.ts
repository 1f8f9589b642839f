/** The enabling rules of the form buttons (spec 000 §5), kept pure so that they are unit-tested. */
export function formActionsDisabled(state: { isDirty: boolean; isTouched: boolean; loading: boolean }): {
  save: boolean;
  saveAndClose: boolean;
} {
  return {
    // "Save is disabled while pristine or loading."
    save: !state.isDirty || state.loading,
    // "Save & Close is disabled while the form is pristine and untouched, or loading."
    saveAndClose: (!state.isDirty && !state.isTouched) || state.loading,
  };
}

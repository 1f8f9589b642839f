import { useState } from 'react';
import { SEVERITIES, WORK_UNIT_MESSAGES, WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import { enumOptions } from '../../components/enum-label';
import type { FieldOption } from '../../components/form-fields';
import type { FilterItem } from '../../lib/list-query';
import type { FiltersChange } from '../../lib/list-state';
import { useTenantsLookup, useWorkUnitTypesLookup } from '../../lib/lookups';
import { STATE_NAME_LABELS } from './work-unit-display';
import {
  addChipValues,
  chipsOf,
  chipValues,
  CHIP_FIELDS,
  DEFAULT_FILTERS,
  SERVICE_LEVEL_LABELS,
  removeChip,
  setChip,
  type ChipField,
  type ChipValue,
} from './work-unit-filters';

interface ChipDraft {
  field: ChipField;
  values: ChipValue[];
  /** A new chip (its field may be chosen) or a change to an existing one. */
  adding: boolean;
}

/**
 * The filter-chip bar of the work units list (spec 001 §2): chips of state, severity, type and
 * tenant values, and of service level conditions; adding or changing one needs a value ("Please make a selection", spec 001 §5).
 * Changes go out as functions of the current filters: two chips removed before the bar shows
 * the first removal must both go, not the second bring the first back.
 */
export function useFilterChips(filters: readonly FilterItem[], onChange: (change: FiltersChange) => void) {
  const types = useWorkUnitTypesLookup();
  const tenants = useTenantsLookup();
  const [draft, setDraft] = useState<ChipDraft | null>(null);
  const [error, setError] = useState<string | null>(null);

  const options: Record<ChipField, FieldOption[]> = {
    stateId: enumOptions(WORK_UNIT_STATES, STATE_NAME_LABELS),
    severityId: enumOptions(SEVERITIES),
    workUnitTypeId: (types.data ?? []).map((type) => ({ value: type.workUnitTypeId, label: type.name })),
    tenantId: (tenants.data ?? []).map((tenant) => ({ value: tenant.tenantId, label: tenant.name })),
    serviceLevel: Object.entries(SERVICE_LEVEL_LABELS).map(([value, label]) => ({ value, label })),
  };
  const labelOf = (field: ChipField, value: ChipValue) =>
    options[field].find((option) => option.value === value)?.label ?? String(value);
  const fieldLabel = (field: ChipField) => CHIP_FIELDS.find((chip) => chip.field === field)?.label ?? field;

  const open = (next: ChipDraft) => {
    setError(null);
    setDraft(next);
  };

  return {
    chips: chipsOf(filters).map((chip) => ({
      field: chip.field,
      label: `${fieldLabel(chip.field)}: ${chip.values.map((value) => labelOf(chip.field, value)).join(', ')}`,
    })),
    isDefault: JSON.stringify(chipsOf(filters)) === JSON.stringify(chipsOf(DEFAULT_FILTERS)),
    hidesFinished: chipValues(filters.find((item) => item.field === 'stateId')).length === 0,
    remove: (field: ChipField) => onChange(removeChip(field)),
    reset: () => onChange([...DEFAULT_FILTERS]),
    draft,
    error,
    fieldOptions: CHIP_FIELDS.map((chip) => ({ value: chip.field, label: chip.label })),
    valueOptions: draft ? options[draft.field] : [],
    add: () =>
      open({
        field: CHIP_FIELDS.find((chip) => !filters.some((item) => item.field === chip.field))?.field ?? 'stateId',
        values: [],
        adding: true,
      }),
    edit: (field: ChipField) =>
      open({ field, values: chipValues(filters.find((item) => item.field === field)), adding: false }),
    setField: (field: ChipField) => draft && open({ ...draft, field, values: [] }),
    setValues: (values: ChipValue[]) => {
      if (!draft) return;
      setError(null);
      setDraft({ ...draft, values });
    },
    cancel: () => setDraft(null),
    apply: () => {
      if (!draft) return;
      if (draft.values.length === 0) {
        setError(WORK_UNIT_MESSAGES.pleaseMakeSelection);
        return;
      }
      const { adding, field, values } = draft;
      onChange((current) => (adding ? addChipValues(current, field, values) : setChip(current, field, values)));
      setDraft(null);
    },
  };
}

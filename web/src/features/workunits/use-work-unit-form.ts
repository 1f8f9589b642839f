import { useCallback, useState } from 'react';
import { type Path } from 'react-hook-form';
import type { z } from 'zod';
import { workUnitFormSchema, type WorkUnit, type WorkUnitFields } from '@cfs/contracts/work-units';
import { WORK_UNIT_MESSAGES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/values/work-units';
import { useSchemaForm } from '../../components/form-resolver';
import { isReportedByClient } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useCreateWorkUnit, usePatchWorkUnit, useRefetchWorkUnit } from './api';
import { saveFailure, type SaveFailure } from './save-error';
import {
  assignmentGroupPrompt,
  formValuesOf,
  type AssignmentGroupPrompt,
  type WorkUnitFormValues,
} from './work-unit-form-values';
import { diffWithTests, editableDocument } from './work-unit-patch';

export type WorkUnitFormInput = z.input<typeof workUnitFormSchema>;
export type WorkUnitFormOutput = z.output<typeof workUnitFormSchema>;

/** A save the panel has shown already; the form's machinery only learns that it failed. */
class WorkUnitSaveError extends Error {
  constructor(readonly failure: SaveFailure) {
    super(failure.lines.join(' '));
    this.name = 'WorkUnitSaveError';
  }
}

export interface UseWorkUnitFormOptions {
  /** The saved unit; absent for a new one. */
  unit?: WorkUnit;
  /** The new unit's values (blank, Sev0, New). */
  blank?: WorkUnitFormValues;
  onCreated: (unit: WorkUnit) => void;
}

/**
 * The work unit panel's form (spec 001 §2 "Work unit panel", §4, §5, §8): zod validation with the
 * contracts' rules; create with workUnitId -1; edits as a JSON Patch of the difference between
 * the unit as it was loaded (the base) and the form, with `test` operations, so a change someone
 * else made meanwhile is refused rather than overwritten; the save failures in the spec's words.
 */
export function useWorkUnitForm({ unit, blank, onCreated }: UseWorkUnitFormOptions) {
  const toast = useToast();
  const [base, setBase] = useState<WorkUnit | undefined>(unit);
  const isNew = base === undefined;
  const form = useSchemaForm(workUnitFormSchema, unit ? formValuesOf(unit) : blank);
  const create = useCreateWorkUnit();
  const patch = usePatchWorkUnit({ successMessage: (updated) => WORK_UNIT_MESSAGES.saved(updated.workUnitId) });
  const refetch = useRefetchWorkUnit();
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [groupPrompt, setGroupPrompt] = useState<AssignmentGroupPrompt | null>(null);

  const save = async (values: WorkUnitFormOutput) => {
    setFailure(null);
    const document = editableDocument(values) as unknown as WorkUnitFields;
    try {
      if (!base) {
        onCreated(await create.mutateAsync(document));
        return;
      }
      const operations = diffWithTests(editableDocument(base), document);
      if (operations.length === 0) return;
      const updated = await patch.mutateAsync({ workUnitId: base.workUnitId, patch: operations });
      setBase(updated);
      form.reset(formValuesOf(updated));
    } catch (error) {
      // 401 and 403 are answered by the API client (sign-in, the access toast; spec 000 §8, 001 §6).
      if (isReportedByClient(error)) throw error;
      const shown = saveFailure(error, { isNew: !base });
      setFailure(shown);
      for (const [field, message] of Object.entries(shown.fieldErrors)) {
        if (field in document) form.setError(field as Path<WorkUnitFormInput>, { type: 'server', message });
      }
      throw new WorkUnitSaveError(shown);
    }
  };

  /** Another action of the panel (approve, decline, relations) saved the unit: it is the new base; the user's edits stay. */
  const rebase = useCallback(
    (updated: WorkUnit) => {
      setBase(updated);
      form.reset(formValuesOf(updated), { keepDirtyValues: true });
    },
    [form],
  );

  /** The conflict's way out: drop the edits and show the unit as it is now. */
  const discardAndRefresh = async () => {
    if (!base) return;
    const fresh = await refetch(base.workUnitId);
    setBase(fresh);
    form.reset(formValuesOf(fresh));
    setFailure(null);
  };

  /** Categories belong to a tenant and a type, subcategories to a category, groups to a tenant. */
  const clear = (...fields: ('workUnitCategoryId' | 'workUnitSubcategoryId' | 'assignmentGroup')[]) => {
    for (const field of fields)
      if ((form.getValues(field) ?? null) !== null) form.setValue(field, null, { shouldDirty: true });
  };
  const tenantChanged = () => clear('workUnitCategoryId', 'workUnitSubcategoryId', 'assignmentGroup');
  const typeChanged = () => clear('workUnitCategoryId', 'workUnitSubcategoryId');
  const categoryChanged = () => clear('workUnitSubcategoryId');

  /** Type migration from the footer menu (spec 001 §4). */
  const migrateToChangeRequest = () => {
    if (form.getValues('workUnitTypeId') === WORK_UNIT_TYPES.ChangeRequest) {
      toast.warning(WORK_UNIT_MESSAGES.alreadyChangeRequest);
      return;
    }
    form.setValue('workUnitTypeId', WORK_UNIT_TYPES.ChangeRequest, { shouldDirty: true, shouldTouch: true });
    typeChanged();
  };

  /** The assignment group changed: ask what spec 001 §4 asks, if anything. */
  const assignmentGroupChanged = () => {
    setGroupPrompt(
      assignmentGroupPrompt({ isNew, stateId: form.getValues('stateId'), assignedTo: form.getValues('assignedTo') }),
    );
  };

  const answerGroupPrompt = (clearAssignee: boolean) => {
    if (clearAssignee && groupPrompt) {
      form.setValue('assignedTo', null, { shouldDirty: true });
      if (groupPrompt === 'clearAssigneeAndSetNew')
        form.setValue('stateId', WORK_UNIT_STATES.New, { shouldDirty: true });
    }
    setGroupPrompt(null);
  };

  return {
    form,
    base,
    isNew,
    save,
    saving: create.isPending || patch.isPending,
    failure,
    rebase,
    discardAndRefresh,
    migrateToChangeRequest,
    tenantChanged,
    typeChanged,
    categoryChanged,
    assignmentGroupChanged,
    groupPrompt,
    answerGroupPrompt,
  };
}

export type WorkUnitFormApi = ReturnType<typeof useWorkUnitForm>;

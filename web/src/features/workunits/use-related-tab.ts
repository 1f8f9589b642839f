import { useState } from 'react';
import { RELATED_SEARCH_DEBOUNCE_MS } from '@cfs/contracts/constants';
import type { WorkUnit, WorkUnitRelation } from '@cfs/contracts/work-units';
import { isReportedByClient } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { usePatchWorkUnit, useWorkUnitSearch, useWorkUnitSummaries, type WorkUnitSummary } from './api';
import { saveFailure } from './save-error';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { relationGroups, WORK_UNIT_RELATION } from './work-unit-display';
import { relationsPatch } from './work-unit-patch';

/**
 * The Related tab (spec 001 §2): the unit's relations by type, the related work units' titles
 * and states, the related work unit search (500 ms), adding and removing relations through the
 * unit's PATCH.
 */
export function useRelatedTab(unit: WorkUnit, onUpdated: (unit: WorkUnit) => void) {
  const toast = useToast();
  const groups = relationGroups(unit.relations);
  const relatedIds = (groups.find((group) => group.type === WORK_UNIT_RELATION)?.referenceIds ?? [])
    .filter((id) => /^\d+$/.test(id))
    .map(Number);
  const summaries = useWorkUnitSummaries(relatedIds);
  const [searchText, setSearchText] = useState('');
  const term = useDebouncedValue(searchText, RELATED_SEARCH_DEBOUNCE_MS);
  const search = useWorkUnitSearch(term);
  const patch = usePatchWorkUnit();

  const change = (relations: WorkUnitRelation[]) =>
    patch.mutate(
      { workUnitId: unit.workUnitId, patch: relationsPatch(unit, relations) },
      {
        onSuccess: onUpdated,
        // 401 and 403 are answered by the API client (login, access toast).
        onError: (error) => {
          if (!isReportedByClient(error)) toast.error(saveFailure(error).lines.join(' '));
        },
      },
    );

  const candidates = (search.data?.rows ?? []).filter(
    (row) => row.workUnitId !== unit.workUnitId && !relatedIds.includes(row.workUnitId),
  );

  return {
    groups,
    summaryOf: (referenceId: string): WorkUnitSummary | undefined =>
      summaries.data?.rows.find((row) => String(row.workUnitId) === referenceId),
    searchText,
    setSearchText,
    searching: search.isFetching,
    candidates,
    busy: patch.isPending,
    addWorkUnit: (related: WorkUnitSummary) =>
      change([...unit.relations, { referenceId: String(related.workUnitId), referenceType: WORK_UNIT_RELATION }]),
    remove: (relation: WorkUnitRelation) =>
      change(
        unit.relations.filter(
          (existing) =>
            !(existing.referenceId === relation.referenceId && existing.referenceType === relation.referenceType),
        ),
      ),
  };
}

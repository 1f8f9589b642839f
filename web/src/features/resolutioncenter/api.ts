import { useQuery } from '@tanstack/react-query';
import type {
  HistoryRecord,
  ResolutionCenterCategory,
  ResolutionCenterRequest,
  WorkUnit as WorkUnitEntity,
} from '@cfs/contracts/work-units';
import { RESOLUTION_CENTER_MESSAGES, WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import { apiGet, apiSend } from '../../lib/api-client';
import { positiveIntId } from '../../lib/ids';
import type { JsonOf } from '../../lib/json-types';
import { listItemQueryOptions, listQueryKey } from '../../lib/list-api';
import { useApiMutation } from '../../lib/mutations';

/** The Resolution Center (spec 001 §2, §7): the caller's requests, and filing one. */
export const RESOLUTION_CENTER_PATH = '/v1/workunits/rc';

export type ResolutionCenterUnit = JsonOf<WorkUnitEntity>;

/** One request by the address's `?workUnitId=`, read through the Resolution Center list (an end user may read no other). */
export function useResolutionCenterUnit(id: string | null) {
  const workUnitId = positiveIntId(id);
  const query = useQuery({
    ...listItemQueryOptions<ResolutionCenterUnit>(RESOLUTION_CENTER_PATH, `workUnitId eq ${workUnitId ?? 0}`),
    enabled: workUnitId !== null,
  });
  return { ...query, notFound: (id !== null && workUnitId === null) || (query.isSuccess && query.data === null) };
}

export function useExternalNotes(workUnitId: number | null) {
  return useQuery({
    queryKey: ['resolutioncenter', 'externalNotes', workUnitId],
    queryFn: async ({ signal }) =>
      (
        await apiGet<{ value: JsonOf<HistoryRecord>[] }>(
          `${RESOLUTION_CENTER_PATH}/${workUnitId ?? 0}/externalNotes`,
          undefined,
          { signal },
        )
      ).value,
    enabled: workUnitId !== null,
  });
}

/** The Service and Need choices: the tenant's categories shown in the Resolution Center. */
export function useResolutionCenterCategories(tenantId: string) {
  return useQuery({
    queryKey: ['resolutioncenter', 'categories', tenantId],
    queryFn: async ({ signal }) =>
      (
        await apiGet<{ value: ResolutionCenterCategory[] }>(
          `${RESOLUTION_CENTER_PATH}/categories`,
          { tenantId },
          { signal },
        )
      ).value,
    enabled: tenantId !== '',
  });
}

export function useCreateRequest() {
  return useApiMutation({
    mutationFn: (input: ResolutionCenterRequest) => apiSend<ResolutionCenterUnit>('PUT', '/api/v1/rc/workunits', input),
    invalidate: [listQueryKey(RESOLUTION_CENTER_PATH)],
    successMessage: RESOLUTION_CENTER_MESSAGES.created,
    errorMessage: RESOLUTION_CENTER_MESSAGES.failed,
  });
}

export function useCallMe(workUnitId: number) {
  return useApiMutation({
    mutationFn: () => apiSend<JsonOf<HistoryRecord>>('POST', `/v1/workunitnotes/callme/${workUnitId}`),
    invalidate: [['resolutioncenter', 'externalNotes', workUnitId]],
    successMessage: WORK_UNIT_MESSAGES.callMeSuccess,
    errorMessage: WORK_UNIT_MESSAGES.callMeFailed,
  });
}

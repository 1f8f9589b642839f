import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Operation } from 'fast-json-patch';
import type { BulkResult, ListResponse } from '@cfs/contracts/api';
import type {
  HistoryRecord as HistoryRecordEntity,
  WorkUnit,
  WorkUnitBulkAssign,
  WorkUnitBulkState,
  WorkUnitFields,
} from '@cfs/contracts/work-units';
import { WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import { apiGet, apiSend, ApiError } from '../../lib/api-client';
import { notFoundError, pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { listQueryKey, listQueryOptions } from '../../lib/list-api';
import { tenantScopeFilter, type ListResource } from '../../lib/list-query';
import { useApiMutation } from '../../lib/mutations';
import { manualActionsKey } from './automation-api';
import { acknowledgePatch } from './acknowledge-patch';

/** Work units, their notes and people (spec 001 §7 Work units); the form's lookups are in `lib/lookups.ts`. */
export const WORK_UNITS_PATH = '/v1/workunits';
/** The grid's expansions: the Tenant and Work Unit Type columns, and the service level clocks. */
export const WORK_UNITS_EXPAND = 'tenant,workUnitType,responseClock,resolutionClock';

export type { WorkUnit };
export type HistoryRecord = JsonOf<HistoryRecordEntity>;
export interface ApprovalCheck {
  approverId: string;
  isCurrentUser: boolean;
  displayName: string | null;
}
/** A related work unit as the Related tab and its search show it. */
export type WorkUnitSummary = Pick<WorkUnit, 'workUnitId' | 'title' | 'stateId'>;

const historyKey = (id: number, externalOnly: boolean) =>
  ['workunit', id, externalOnly ? 'externalNotes' : 'history'] as const;

// ---------------------------------------------------------------------------------------------
// One work unit

/** `GET v1/workunits({id})`: the unit with tenant, type, category, subcategory and relations. */
export function workUnitQuery(id: number) {
  return queryOptions({
    queryKey: ['workunit', id] as const,
    queryFn: ({ signal }) => apiGet<WorkUnit>(`${WORK_UNITS_PATH}(${pathId(id)})`, undefined, { signal }),
  });
}

export function useWorkUnit(id: number | null) {
  return useQuery({ ...workUnitQuery(id ?? 0), enabled: id !== null });
}

/** The unit a `publicWorkUnitId` names (the same call takes the public GUID); a text that is no GUID is not found. */
export function useWorkUnitByPublicId(publicId: string | null) {
  return useQuery({
    queryKey: ['workunit', 'public', publicId ?? ''],
    queryFn: ({ signal }) =>
      isGuid(publicId)
        ? apiGet<WorkUnit>(`${WORK_UNITS_PATH}(${pathId(publicId)})`, undefined, { signal })
        : Promise.reject(notFoundError()),
    enabled: publicId !== null && publicId !== '',
    retry: false,
  });
}

/** The service level clocks of one unit (or of every unit), as the unit's panel reads them. */
export const timersKey = (workUnitId?: number) =>
  workUnitId === undefined ? ['servicelevels', 'timers'] : ['servicelevels', 'timers', workUnitId];

/** How long after a change its clocks are read again: the engine moves them once the change's event is read, within moments. */
const CLOCKS_SETTLE_MS = 1500;

/** Reads the clocks again now and once the engine has followed the change's event. */
function useRefreshClocks() {
  const queryClient = useQueryClient();
  return (workUnitId?: number) => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: timersKey(workUnitId) });
    refresh();
    setTimeout(refresh, CLOCKS_SETTLE_MS);
  };
}

/**
 * A change to a unit: the answer is the unit itself; every list of units, its history and its
 * clocks are refreshed. Failures are the caller's to show, unless `errorMessage` says otherwise.
 */
function useWorkUnitMutation<TVariables>(
  mutationFn: (variables: TVariables) => Promise<WorkUnit>,
  options: {
    errorMessage?: (error: Error) => string | readonly string[] | undefined;
    successMessage?: (unit: WorkUnit) => string;
  } = {},
) {
  const queryClient = useQueryClient();
  const refreshClocks = useRefreshClocks();
  return useApiMutation({
    mutationFn,
    onSuccess: (unit) => {
      queryClient.setQueryData(workUnitQuery(unit.workUnitId).queryKey, unit);
      refreshClocks(unit.workUnitId);
    },
    ...(options.successMessage ? { successMessage: options.successMessage } : {}),
    // A new state or protocol changes which manual actions wait (spec 001 §2 Pending Actions).
    invalidate: (unit) => [
      listQueryKey(WORK_UNITS_PATH),
      historyKey(unit.workUnitId, false),
      historyKey(unit.workUnitId, true),
      manualActionsKey(unit.workUnitId),
    ],
    ...(options.errorMessage ? { errorMessage: options.errorMessage } : {}),
  });
}

/** `PUT /api/v1/workunits` with workUnitId -1 (spec 001 §5): "Work unit #{id} created."; failures are shown by the panel. */
export function useCreateWorkUnit() {
  return useWorkUnitMutation(
    (fields: WorkUnitFields) => apiSend<WorkUnit>('PUT', `/api${WORK_UNITS_PATH}`, { ...fields, workUnitId: -1 }),
    {
      successMessage: (unit) => WORK_UNIT_MESSAGES.created(unit.workUnitId),
    },
  );
}

function sendPatch({ workUnitId, patch }: { workUnitId: number; patch: Operation[] }): Promise<WorkUnit> {
  return apiSend<WorkUnit>('PATCH', `${WORK_UNITS_PATH}/${pathId(workUnitId)}`, patch);
}

/** `PATCH /v1/workunits/{id}` with a JSON Patch holding `test` operations. Failures are the caller's to show. */
export function usePatchWorkUnit(options: { successMessage?: (unit: WorkUnit) => string } = {}) {
  return useWorkUnitMutation(sendPatch, options);
}

/** The "(ack)" link (spec 001 §4): Acknowledged and assigned to the current user, then "Work unit #{id} acknowledged.". */
export function useAcknowledge(currentUserEmail: string) {
  return useWorkUnitMutation(
    (unit: Pick<WorkUnit, 'workUnitId' | 'stateId' | 'assignedTo'>) =>
      sendPatch({ workUnitId: unit.workUnitId, patch: acknowledgePatch(unit, currentUserEmail) }),
    {
      successMessage: (unit) => WORK_UNIT_MESSAGES.acknowledged(unit.workUnitId),
      errorMessage: (error) =>
        error instanceof ApiError && error.body?.message.includes(WORK_UNIT_MESSAGES.testValueConflict)
          ? WORK_UNIT_MESSAGES.modifiedByAnother
          : error.message,
    },
  );
}

/**
 * Bulk changes of the selected units (`POST /v1/workunits/bulk/{assign|state}`): the answer
 * names the units changed and those refused with the reason; every list and open unit is refreshed.
 */
function useBulkChange<TBody>(action: 'assign' | 'state') {
  const refreshClocks = useRefreshClocks();
  return useApiMutation({
    mutationFn: (body: TBody) => apiSend<BulkResult<number>>('POST', `${WORK_UNITS_PATH}/bulk/${action}`, body),
    onSuccess: () => refreshClocks(),
    invalidate: [listQueryKey(WORK_UNITS_PATH), ['workunit']],
    errorMessage: WORK_UNIT_MESSAGES.bulkFailed,
  });
}
export const useBulkAssign = () => useBulkChange<WorkUnitBulkAssign>('assign');
export const useBulkState = () => useBulkChange<WorkUnitBulkState>('state');

/** Approve or decline as approver N: "Change Request approval/decline action failed." and the server's reason. */
export function useApprovalAction(kind: 'approve' | 'decline') {
  return useWorkUnitMutation(sendPatch, {
    errorMessage: (error) => [
      kind === 'approve' ? WORK_UNIT_MESSAGES.approveFailed : WORK_UNIT_MESSAGES.declineFailed,
      // "Authenticated user does not match {approver}" (spec 001 §6, §8) says why.
      ...(error instanceof ApiError && error.status === 400 && error.body?.message ? [error.body.message] : []),
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// Lists without the grid: the grid's list contract, key and fetch (`listQueryOptions`)

const SUMMARY: ListResource = { select: 'workUnitId,title,stateId', fields: { workUnitId: { kind: 'number' } } };

/** Related work units by id (spec 001 §2 Related tab): id, title and state only. */
export function useWorkUnitSummaries(ids: readonly number[]) {
  return useQuery({
    ...listQueryOptions<WorkUnitSummary>(
      WORK_UNITS_PATH,
      { pageSize: Math.max(ids.length, 1), filters: [{ field: 'workUnitId', operator: 'isAnyOf', value: [...ids] }] },
      SUMMARY,
    ),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** The related work unit search: title contains the text, or the id when it is a number; newest first, 10 rows. */
export function useWorkUnitSearch(text: string) {
  const search = text.trim();
  return useQuery({
    ...listQueryOptions<WorkUnitSummary>(
      WORK_UNITS_PATH,
      { search, sort: [{ field: 'created', direction: 'desc' }] },
      { ...SUMMARY, searchFields: ['title', { path: 'workUnitId', kind: 'number' }] },
    ),
    enabled: search.length > 0,
  });
}

/** One page of the classic list (the old experience) of the tenant in the path: newest first. */
export function useClassicWorkUnits(tenantId: string, page: number, pageSize: number) {
  return useQuery({
    ...listQueryOptions<WorkUnit>(
      WORK_UNITS_PATH,
      { page, pageSize, sort: [{ field: 'created', direction: 'desc' }] },
      // The tenant in the path, as in the new experience's default.
      { expand: 'tenant', fixedFilter: tenantScopeFilter(tenantId, false) },
    ),
    placeholderData: keepPreviousData,
  });
}

// ---------------------------------------------------------------------------------------------
// Notes

/** `GET /v1/workunits/GetWorkUnitHistoryRecords(workUnitId={id})`, or `GET /v1/workunits/{id}/externalNotes`; newest first. */
export function useHistoryRecords(workUnitId: number, externalOnly: boolean) {
  return useQuery({
    queryKey: historyKey(workUnitId, externalOnly),
    queryFn: ({ signal }) =>
      apiGet<ListResponse<HistoryRecord>>(
        externalOnly
          ? `${WORK_UNITS_PATH}/${pathId(workUnitId)}/externalNotes`
          : `${WORK_UNITS_PATH}/GetWorkUnitHistoryRecords(workUnitId=${pathId(workUnitId)})`,
        undefined,
        { signal },
      ),
    select: (response) => response.value,
  });
}

/** `PUT /v1/workunitnotes`: "Note added successfully!" or "Unable to save note.". */
export function useAddNote(workUnitId: number, onAdded: () => void) {
  return useApiMutation({
    onSuccess: onAdded,
    mutationFn: (note: { detail: string; isExternalNote: boolean }) =>
      apiSend<HistoryRecord>('PUT', '/v1/workunitnotes', { workUnitId, ...note }),
    successMessage: WORK_UNIT_MESSAGES.noteAdded,
    invalidate: [historyKey(workUnitId, false), historyKey(workUnitId, true)],
    errorMessage: WORK_UNIT_MESSAGES.noteSaveFailed,
  });
}

/** `POST /v1/workunitnotes/callme/{workUnitId}` with the Resolution Center's texts (spec 001 §8). */
export function useCallMe(workUnitId: number) {
  return useApiMutation({
    mutationFn: () => apiSend<HistoryRecord>('POST', `/v1/workunitnotes/callme/${pathId(workUnitId)}`),
    successMessage: WORK_UNIT_MESSAGES.callMeSuccess,
    invalidate: [historyKey(workUnitId, false), historyKey(workUnitId, true)],
    errorMessage: WORK_UNIT_MESSAGES.callMeFailed,
  });
}

// ---------------------------------------------------------------------------------------------
// Approvals

/** `/api/generallookup/approval?approverId=`: whether the signed-in user is this approver, and their name. */
export function useApprovalCheck(approverId: string) {
  return useQuery({
    queryKey: ['generallookup', 'approval', approverId],
    queryFn: ({ signal }) => apiGet<ApprovalCheck>('/api/generallookup/approval', { approverId }, { signal }),
    staleTime: 5 * 60_000,
  });
}

/** Reads the unit again from the server, past the cache: "discard your changes … and refresh it" (spec 001 §8). */
export function useRefetchWorkUnit() {
  const queryClient = useQueryClient();
  return (workUnitId: number) => queryClient.fetchQuery({ ...workUnitQuery(workUnitId), staleTime: 0 });
}

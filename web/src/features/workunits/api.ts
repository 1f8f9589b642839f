import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Operation } from 'fast-json-patch';
import type { ListResponse } from '@cfs/contracts/api';
import type { Person, WorkUnitTypeLookup } from '@cfs/contracts/shell';
import type { Tenant as TenantEntity } from '@cfs/contracts/tenants';
import type { categoryLookupSchema, subcategoryLookupSchema } from '@cfs/contracts/work-unit-settings';
import { WORK_UNIT_MESSAGES, type HistoryRecord as HistoryRecordEntity, type WorkUnit, type WorkUnitFields } from '@cfs/contracts/work-units';
import type { z } from 'zod';
import { tenantsLookupQuery } from '../../app/lookups';
import { apiGet, apiSend, ApiError, isReportedByClient } from '../../lib/api-client';
import type { JsonOf } from '../../lib/json-types';
import { fetchList, listQueryKey } from '../../lib/list-api';
import { isNumberText, quote, type ODataParams } from '../../lib/list-query';
import { useToast } from '../../lib/toast';
import { acknowledgePatch } from './work-unit-patch';

/** Work units, their notes, lookups and people (spec 001 §7 Work units). */
export const WORK_UNITS_PATH = '/v1/workunits';
/** The grid's expansions: the Tenant and Work Unit Type columns. */
export const WORK_UNITS_EXPAND = 'tenant,workUnitType';

export type { WorkUnit };
export type HistoryRecord = JsonOf<HistoryRecordEntity>;
export type TenantDetails = JsonOf<TenantEntity>;
export type CategoryLookup = z.infer<typeof categoryLookupSchema>;
export type SubcategoryLookup = z.infer<typeof subcategoryLookupSchema>;
export interface ApprovalCheck {
  approverId: string;
  isCurrentUser: boolean;
  displayName: string | null;
}
/** A related work unit as the Related tab and its search show it. */
export type WorkUnitSummary = Pick<WorkUnit, 'workUnitId' | 'title' | 'stateId'>;

const workUnitKey = (id: number) => ['workunit', id] as const;
const historyKey = (id: number, externalOnly: boolean) => ['workunit', id, externalOnly ? 'externalNotes' : 'history'] as const;
const LOOKUP_STALE_MS = 5 * 60_000;

// ---------------------------------------------------------------------------------------------
// One work unit

export function workUnitQuery(id: number | string) {
  return queryOptions({
    queryKey: ['workunit', id] as const,
    queryFn: ({ signal }) => apiGet<WorkUnit>(`${WORK_UNITS_PATH}(${id})`, undefined, { signal }),
  });
}

/** `GET v1/workunits({id})`: the unit with tenant, type, category, subcategory and relations. */
export function useWorkUnit(id: number | null) {
  return useQuery({ ...workUnitQuery(id ?? 0), enabled: id !== null });
}

/** The unit a `publicWorkUnitId` names (the same call takes the public GUID). */
export function useWorkUnitByPublicId(publicId: string | null) {
  return useQuery({ ...workUnitQuery(publicId ?? ''), enabled: publicId !== null && publicId !== '', retry: false });
}

/** After any change: the unit itself, every list of units, its history. */
function useWorkUnitChanged() {
  const queryClient = useQueryClient();
  return (unit: WorkUnit) => {
    queryClient.setQueryData(workUnitKey(unit.workUnitId), unit);
    void queryClient.invalidateQueries({ queryKey: listQueryKey(WORK_UNITS_PATH) });
    void queryClient.invalidateQueries({ queryKey: historyKey(unit.workUnitId, false) });
    void queryClient.invalidateQueries({ queryKey: historyKey(unit.workUnitId, true) });
  };
}

/** `PUT /api/v1/workunits` with workUnitId -1 (spec 001 §5). Failures are shown by the panel. */
export function useCreateWorkUnit() {
  const changed = useWorkUnitChanged();
  return useMutation({
    mutationFn: (fields: WorkUnitFields) => apiSend<WorkUnit>('PUT', `/api${WORK_UNITS_PATH}`, { ...fields, workUnitId: -1 }),
    onSuccess: changed,
  });
}

function sendPatch({ workUnitId, patch }: { workUnitId: number; patch: Operation[] }): Promise<WorkUnit> {
  return apiSend<WorkUnit>('PATCH', `${WORK_UNITS_PATH}/${workUnitId}`, patch);
}

/** `PATCH /v1/workunits/{id}` with a JSON Patch holding `test` operations. Failures are the caller's to show. */
export function usePatchWorkUnit() {
  const changed = useWorkUnitChanged();
  return useMutation({ mutationFn: sendPatch, onSuccess: changed });
}

/** The "(ack)" link (spec 001 §4): Acknowledged and assigned to the current user, then "Work unit #{id} acknowledged.". */
export function useAcknowledge(currentUserEmail: string) {
  const changed = useWorkUnitChanged();
  const toast = useToast();
  return useMutation({
    mutationFn: (unit: Pick<WorkUnit, 'workUnitId' | 'stateId' | 'assignedTo'>) => sendPatch({ workUnitId: unit.workUnitId, patch: acknowledgePatch(unit, currentUserEmail) }),
    onSuccess: (unit) => {
      changed(unit);
      toast.success(WORK_UNIT_MESSAGES.acknowledged(unit.workUnitId));
    },
    onError: (error) => {
      if (isReportedByClient(error)) return;
      const conflict = error instanceof ApiError && error.body?.message.includes(WORK_UNIT_MESSAGES.testValueConflict);
      toast.error(conflict ? WORK_UNIT_MESSAGES.modifiedByAnother : error.message);
    },
  });
}

/** Approve or decline as approver N: "Change Request approval/decline action failed." and the server's reason. */
export function useApprovalAction(kind: 'approve' | 'decline') {
  const changed = useWorkUnitChanged();
  const toast = useToast();
  return useMutation({
    mutationFn: sendPatch,
    onSuccess: changed,
    onError: (error) => {
      if (isReportedByClient(error)) return;
      toast.error(kind === 'approve' ? WORK_UNIT_MESSAGES.approveFailed : WORK_UNIT_MESSAGES.declineFailed);
      // "Authenticated user does not match {approver}" (spec 001 §6, §8) says why.
      if (error instanceof ApiError && error.status === 400 && error.body?.message) toast.error(error.body.message);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Lists without the grid

/** Related work units by id (spec 001 §2 Related tab): id, title and state only. */
export function useWorkUnitSummaries(ids: readonly number[]) {
  const query: ODataParams & { $select: string } = {
    $filter: ids.length > 0 ? `workUnitId in (${ids.join(',')})` : 'false',
    $select: 'workUnitId,title,stateId',
    $top: String(Math.max(ids.length, 1)),
  };
  return useQuery({
    queryKey: listQueryKey(WORK_UNITS_PATH, query),
    queryFn: ({ signal }) => fetchList<WorkUnitSummary>(WORK_UNITS_PATH, query, signal),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** The related work unit search: title contains the text, or the id when it is a number. */
export function useWorkUnitSearch(text: string) {
  const trimmed = text.trim();
  const byTitle = `contains(tolower(title),${quote(trimmed.toLowerCase())})`;
  const query: ODataParams & { $select: string } = {
    $filter: isNumberText(trimmed) && Number.isInteger(Number(trimmed)) ? `(${byTitle} or workUnitId eq ${Number(trimmed)})` : byTitle,
    $select: 'workUnitId,title,stateId',
    $orderby: 'created desc',
    $top: '10',
  };
  return useQuery({
    queryKey: listQueryKey(WORK_UNITS_PATH, query),
    queryFn: ({ signal }) => fetchList<WorkUnitSummary>(WORK_UNITS_PATH, query, signal),
    enabled: trimmed.length > 0,
  });
}

/** One page of the classic list (the old experience): newest first, 50 rows. */
export function useClassicWorkUnits(page: number, pageSize: number) {
  const query: ODataParams = { $orderby: 'created desc', $top: String(pageSize), $skip: String(page * pageSize), $count: 'true', $expand: 'tenant' };
  return useQuery({
    queryKey: listQueryKey(WORK_UNITS_PATH, query),
    queryFn: ({ signal }) => fetchList<WorkUnit>(WORK_UNITS_PATH, query, signal),
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
        externalOnly ? `${WORK_UNITS_PATH}/${workUnitId}/externalNotes` : `${WORK_UNITS_PATH}/GetWorkUnitHistoryRecords(workUnitId=${workUnitId})`,
        undefined,
        { signal },
      ),
    select: (response) => response.value,
  });
}

function useHistoryChanged(workUnitId: number) {
  const queryClient = useQueryClient();
  return () => Promise.all([false, true].map((externalOnly) => queryClient.invalidateQueries({ queryKey: historyKey(workUnitId, externalOnly) })));
}

/** `PUT /v1/workunitnotes`: "Note added successfully!" or "Unable to save note.". */
export function useAddNote(workUnitId: number) {
  const historyChanged = useHistoryChanged(workUnitId);
  const toast = useToast();
  return useMutation({
    mutationFn: (note: { detail: string; isExternalNote: boolean }) => apiSend<HistoryRecord>('PUT', '/v1/workunitnotes', { workUnitId, ...note }),
    onSuccess: async () => {
      toast.success(WORK_UNIT_MESSAGES.noteAdded);
      await historyChanged();
    },
    onError: (error) => {
      if (!isReportedByClient(error)) toast.error(WORK_UNIT_MESSAGES.noteSaveFailed);
    },
  });
}

/** `POST /v1/workunitnotes/callme/{workUnitId}` with the Resolution Center's texts (spec 001 §8). */
export function useCallMe(workUnitId: number) {
  const historyChanged = useHistoryChanged(workUnitId);
  const toast = useToast();
  return useMutation({
    mutationFn: () => apiSend<HistoryRecord>('POST', `/v1/workunitnotes/callme/${workUnitId}`),
    onSuccess: async () => {
      toast.success(WORK_UNIT_MESSAGES.callMeSuccess);
      await historyChanged();
    },
    onError: (error) => {
      if (!isReportedByClient(error)) toast.error(WORK_UNIT_MESSAGES.callMeFailed);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Lookups for the form

/** Shared with other screens through the same key ("Legacy" hidden, "Request" shown as "User Request" by the server). */
export const workUnitTypesQuery = queryOptions({
  queryKey: ['generallookup', 'workunittypes'],
  queryFn: ({ signal }) => apiGet<WorkUnitTypeLookup[]>('/api/generallookup/workunittypes', undefined, { signal }),
  staleTime: LOOKUP_STALE_MS,
});

export function useWorkUnitTypes() {
  return useQuery(workUnitTypesQuery);
}

export function useTenants() {
  return useQuery(tenantsLookupQuery);
}

export function useCategoryLookups() {
  return useQuery({
    queryKey: ['generallookup', 'workunitcatgories'],
    queryFn: ({ signal }) => apiGet<CategoryLookup[]>('/api/generallookup/workunitcatgories', undefined, { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}

export function useSubcategoryLookups() {
  return useQuery({
    queryKey: ['generallookup', 'workunitsubcatgories'],
    queryFn: ({ signal }) => apiGet<SubcategoryLookup[]>('/api/generallookup/workunitsubcatgories', undefined, { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}

/** `GET v1/tenants({id})`: the custom field definitions the form shows (spec 001 §7). */
export function useTenantDetails(tenantId: string | null | undefined) {
  return useQuery({
    queryKey: ['tenant', tenantId ?? ''],
    queryFn: ({ signal }) => apiGet<TenantDetails>(`/v1/tenants(${tenantId})`, undefined, { signal }),
    enabled: !!tenantId,
    staleTime: LOOKUP_STALE_MS,
  });
}

/** `GET v1/tenants/{id}/assignmentGroups`. */
export function useAssignmentGroups(tenantId: string | null | undefined) {
  return useQuery({
    queryKey: ['tenant', tenantId ?? '', 'assignmentGroups'],
    queryFn: ({ signal }) => apiGet<string[]>(`/v1/tenants/${tenantId}/assignmentGroups`, undefined, { signal }),
    enabled: !!tenantId,
    staleTime: LOOKUP_STALE_MS,
  });
}

export type PeopleDirectory = 'people' | 'peopleandgroups';

/** `/api/people` or `/api/peopleandgroups?searchTerm=` (the caller debounces 400 ms). */
export function usePeopleSearch(directory: PeopleDirectory, searchTerm: string) {
  const term = searchTerm.trim();
  return useQuery({
    queryKey: ['people', directory, term],
    queryFn: ({ signal }) => apiGet<Person[]>(`/api/${directory}`, { searchTerm: term }, { signal }),
    enabled: term.length > 0,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** `/api/generallookup/approval?approverId=`: whether the signed-in user is this approver, and their name. */
export function useApprovalCheck(approverId: string) {
  return useQuery({
    queryKey: ['generallookup', 'approval', approverId],
    queryFn: ({ signal }) => apiGet<ApprovalCheck>('/api/generallookup/approval', { approverId }, { signal }),
    staleTime: LOOKUP_STALE_MS,
  });
}

/** Reads the unit again from the server, past the cache: "discard your changes … and refresh it" (spec 001 §8). */
export function useRefetchWorkUnit() {
  const queryClient = useQueryClient();
  return (workUnitId: number) => queryClient.fetchQuery({ ...workUnitQuery(workUnitId), staleTime: 0 });
}

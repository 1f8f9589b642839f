import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Operation } from 'fast-json-patch';
import {
  complianceExportFileName,
  COMPLIANCE_MESSAGES,
  type Control,
  type ControlSet,
  type ControlSetSummary,
  type ControlSetsResponse,
  type ControlStatus,
  type ControlStatusCreate,
  type CopyLastWeekResult,
} from '@cfs/contracts/compliance';
import { apiDownloadNamed, apiGet, apiSend } from '../../lib/api-client';
import { pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { useApiMutation } from '../../lib/mutations';

export const CONTROL_SETS_PATH = '/v1/controlsets';
export const CONTROL_STATUSES_PATH = '/v1/controlstatuses';

export type ControlSetRow = JsonOf<ControlSet>;
export type ControlRow = JsonOf<Control>;
export type ControlStatusRow = JsonOf<ControlStatus>;
type ControlSetsAnswer = JsonOf<ControlSetsResponse>;

/** Everything the checklist caches lives under this prefix: a copy or an upload refreshes it all. */
const COMPLIANCE_KEY = ['compliance'] as const;

/** The cache key of one week of one control set for one tenant: the grid's rows. */
export function weekKey(tenantId: string, controlSetId: string, checkDate: string) {
  return [...COMPLIANCE_KEY, 'week', tenantId, controlSetId, checkDate] as const;
}
export type WeekKey = ReturnType<typeof weekKey>;

export interface ControlSetOption {
  id: string;
  name: string;
  description: string | null;
}

/**
 * The control sets the tenant may use, for the Control Set selector (GET v1/controlsets without a
 * week: no statuses travel; the sets come in the server's order, the shipped baselines first).
 */
export function useControlSetOptions(tenantId: string) {
  return useQuery({
    queryKey: [...COMPLIANCE_KEY, 'sets', tenantId],
    queryFn: ({ signal }) => apiGet<ControlSetsAnswer>(CONTROL_SETS_PATH, { tenantId }, { signal }),
    select: (answer): ControlSetOption[] =>
      answer.value.map((set) => ({ id: set.id, name: set.name, description: set.description })),
    enabled: isGuid(tenantId),
    staleTime: 60_000,
  });
}

/**
 * One week of one control set for the tenant: its controls, each with its status record for the
 * week when one exists (GET v1/controlsets, spec 002 §7). The previous week's rows stay on screen
 * while the next week loads, so switching weeks does not empty the grid.
 */
export function useControlSetWeek(tenantId: string, controlSetId: string | undefined, checkDate: string) {
  return useQuery({
    queryKey: weekKey(tenantId, controlSetId ?? '', checkDate),
    queryFn: async ({ signal }) => {
      const answer = await apiGet<ControlSetsAnswer>(
        CONTROL_SETS_PATH,
        { tenantId, controlSetId, checkDate },
        { signal },
      );
      return answer.value.find((set) => set.id === controlSetId) ?? null;
    },
    enabled: isGuid(tenantId) && isGuid(controlSetId),
    placeholderData: keepPreviousData,
  });
}

/** The record of a control for the shown week, if it has one (the server answers at most one). */
export function statusOf(control: ControlRow): ControlStatusRow | undefined {
  return control.controlStatuses[0];
}

/** Puts a control's record for the week (or none, after a delete) into the cached week. */
export function setCachedStatus(
  queryClient: QueryClient,
  key: WeekKey,
  controlId: string,
  record: ControlStatusRow | null,
): void {
  queryClient.setQueryData<ControlSetRow | null>(key, (set) =>
    set
      ? {
          ...set,
          controls: set.controls.map((control) =>
            control.id === controlId ? { ...control, controlStatuses: record ? [record] : [] } : control,
          ),
        }
      : set,
  );
}

export function cachedControl(queryClient: QueryClient, key: WeekKey, controlId: string): ControlRow | undefined {
  return queryClient.getQueryData<ControlSetRow | null>(key)?.controls.find((control) => control.id === controlId);
}

export function createControlStatus(input: ControlStatusCreate): Promise<ControlStatusRow> {
  return apiSend<ControlStatusRow>('POST', CONTROL_STATUSES_PATH, input);
}

/** PATCH v1/controlstatuses/{id} with a JSON Patch whose `test` refuses a change made on top of another's. */
export function patchControlStatus(id: string, patch: Operation[]): Promise<ControlStatusRow> {
  return apiSend<ControlStatusRow>('PATCH', `${CONTROL_STATUSES_PATH}/${pathId(id)}`, patch);
}

export function deleteControlStatus(id: string): Promise<void> {
  return apiSend<void>('DELETE', `${CONTROL_STATUSES_PATH}/${pathId(id)}`);
}

/** "Copy last week": last week's statuses and notes for the controls that have none this week. */
export function useCopyLastWeek() {
  return useApiMutation({
    mutationFn: (input: { controlSetId: string; tenantId: string; checkDate: string }) =>
      apiSend<CopyLastWeekResult>('POST', `${CONTROL_STATUSES_PATH}/copyLastWeek`, input),
    invalidate: [COMPLIANCE_KEY],
    successMessage: (result) => result.message,
    errorMessage: (error) => error.message,
  });
}

/** POST /v1/controlsets/Export() (spec 002 §7): the week's CSV under the name the server gives it. */
export function useExportWeek() {
  return useApiMutation({
    mutationFn: (input: { startDate: string; tenantId: string; controlSetId: string }) =>
      apiDownloadNamed('POST', `${CONTROL_SETS_PATH}/Export()`, input, complianceExportFileName(input.startDate)),
    errorMessage: 'The compliance export failed.',
  });
}

/**
 * PUT v1/controlsets: a control set file (the shipped baselines' shape, or an OSCAL catalog), sent
 * as the JSON it holds. With `tenantId` the set is that tenant's own; without it, every tenant's.
 */
export function useUploadControlSet() {
  return useApiMutation({
    mutationFn: async ({ file, tenantId }: { file: File; tenantId: string | null }) => {
      let document: unknown;
      try {
        document = JSON.parse(await file.text());
      } catch {
        throw new Error(COMPLIANCE_MESSAGES.uploadNotRecognised);
      }
      const query = tenantId ? `?tenantId=${encodeURIComponent(tenantId)}` : '';
      return apiSend<JsonOf<ControlSetSummary>>('PUT', `${CONTROL_SETS_PATH}${query}`, document);
    },
    invalidate: [COMPLIANCE_KEY],
    successMessage: (set) => `Control set "${set.name}" uploaded with ${set.controlCount} controls.`,
    errorMessage: (error) => error.message || COMPLIANCE_MESSAGES.uploadFailed,
  });
}

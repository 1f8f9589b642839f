import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  COMMUNICATION_MESSAGES,
  type Communication as CommunicationEntity,
  type CommunicationActivity as CommunicationActivityEntity,
  type CommunicationActivityInput,
  type CommunicationValues,
  type CommunicationWorkUnit,
  type PublicCommunicationReport,
} from '@cfs/contracts/communications';
import { apiGet, apiSend } from '../../lib/api-client';
import { pathId, positiveIntId } from '../../lib/ids';
import { guidLiteral, isGuid, literal } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { listItemQueryOptions, listQueryKey, listQueryOptions } from '../../lib/list-api';
import { useApiMutation } from '../../lib/mutations';

/** Work unit communications (spec 001 §2 "Work Unit Communications", §7 Communications). */
export const COMMUNICATIONS_PATH = '/v1/workunitcommunications';
export const ACTIVITIES_PATH = '/v1/workunitcommunicationactivities';
const WORK_UNITS_PATH = '/v1/workunits';
/** The grid's expand (spec 000 §7). */
export const COMMUNICATIONS_EXPAND = 'tenant,workUnitCommunicationActivities,workUnits/tenant';

export type Communication = JsonOf<CommunicationEntity>;
export type CommunicationActivity = JsonOf<CommunicationActivityEntity>;
export type LinkedWorkUnit = JsonOf<CommunicationWorkUnit>;
export type PublicReport = JsonOf<PublicCommunicationReport>;

/**
 * The communication the address names by its public id (`?publicWuCommId=`, spec 001 §2), with
 * its tenant, work units and activities; null when none has that id. Read through the list
 * (spec 001 §7 "by public id with workUnits and tenant expanded"), so the list's invalidation
 * refreshes the open drawer too.
 */
export function useCommunicationByPublicId(publicId: string | null) {
  const id = positiveIntId(publicId);
  return useQuery({
    ...listItemQueryOptions<Communication>(
      COMMUNICATIONS_PATH,
      `publicWorkUnitCommunicationId eq ${literal(id ?? 0)}`,
      { expand: COMMUNICATIONS_EXPAND },
    ),
    enabled: id !== null,
  });
}

/** `PUT` (create) or `POST /{id}` (update), dates in UTC; the spec's save texts (001 §8). */
export function useSaveCommunication(id: string | null) {
  return useApiMutation({
    mutationFn: (input: CommunicationValues) =>
      id === null
        ? apiSend<Communication>('PUT', COMMUNICATIONS_PATH, input)
        : apiSend<Communication>('POST', `${COMMUNICATIONS_PATH}/${pathId(id)}`, input),
    invalidate: [listQueryKey(COMMUNICATIONS_PATH)],
    successMessage: COMMUNICATION_MESSAGES.saved,
    errorMessage: COMMUNICATION_MESSAGES.saveFailed,
  });
}

export function useDeleteCommunication() {
  return useApiMutation({
    mutationFn: (id: string) => apiSend<undefined>('DELETE', `${COMMUNICATIONS_PATH}/${pathId(id)}`),
    invalidate: [listQueryKey(COMMUNICATIONS_PATH)],
    successMessage: 'Communication deleted.',
    errorMessage: (error) => error.message,
  });
}

// ---------------------------------------------------------------------------------------------
// Linked work units

export type WorkUnitChoice = Pick<LinkedWorkUnit, 'workUnitId' | 'title' | 'stateId' | 'severityId' | 'tenantId'>;

/**
 * Work units of the communication's tenant whose title (or id, for a number) holds the text, newest
 * first: the work units list API, so only units the user may see come back. The caller debounces
 * the text 500 ms (spec 001 §2).
 */
export function useWorkUnitChoices(tenantId: string, text: string) {
  const search = text.trim();
  return useQuery({
    ...listQueryOptions<WorkUnitChoice>(
      WORK_UNITS_PATH,
      { search, pageSize: 10, sort: [{ field: 'created', direction: 'desc' }] },
      {
        searchFields: ['title', { path: 'workUnitId', kind: 'number' }],
        fixedFilter: isGuid(tenantId) ? `tenantId eq ${guidLiteral(tenantId)}` : undefined,
        select: 'workUnitId,title,stateId,severityId,tenantId',
      },
    ),
    enabled: search.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useLinkWorkUnits(communicationId: string, onLinked: () => void) {
  return useApiMutation({
    onSuccess: onLinked,
    mutationFn: (workunitIds: number[]) =>
      apiSend<LinkedWorkUnit[]>('POST', `${COMMUNICATIONS_PATH}/${pathId(communicationId)}/workUnits`, { workunitIds }),
    invalidate: [listQueryKey(COMMUNICATIONS_PATH)],
    successMessage: 'Work unit linked.',
    errorMessage: (error) => error.message,
  });
}

export function useUnlinkWorkUnit(communicationId: string) {
  return useApiMutation({
    mutationFn: (workUnitId: number) =>
      apiSend<undefined>('DELETE', `${COMMUNICATIONS_PATH}/${pathId(communicationId)}/workUnits/${pathId(workUnitId)}`),
    invalidate: [listQueryKey(COMMUNICATIONS_PATH)],
    successMessage: 'Work unit removed.',
    errorMessage: (error) => error.message,
  });
}

// ---------------------------------------------------------------------------------------------
// Activities

/** A communication's activities, oldest first (`?$filter=workUnitCommunicationId eq {id}`). */
export function useActivities(communicationId: string) {
  return useQuery({
    ...listQueryOptions<CommunicationActivity>(
      ACTIVITIES_PATH,
      { pageSize: 100, sort: [{ field: 'created', direction: 'asc' }] },
      { fixedFilter: `workUnitCommunicationId eq ${guidLiteral(communicationId)}` },
    ),
    enabled: isGuid(communicationId),
  });
}

/** Create (`PUT`) or update (`POST /{id}`) an activity; the reports and the grid read them too. */
export function useSaveActivity() {
  return useApiMutation({
    mutationFn: ({ id, input }: { id: string | null; input: CommunicationActivityInput }) =>
      id === null
        ? apiSend<CommunicationActivity>('PUT', ACTIVITIES_PATH, input)
        : apiSend<CommunicationActivity>('POST', `${ACTIVITIES_PATH}/${pathId(id)}`, input),
    invalidate: [listQueryKey(ACTIVITIES_PATH), listQueryKey(COMMUNICATIONS_PATH)],
    successMessage: 'Activity saved.',
    errorMessage: 'A problem occurred saving the activity. Please try again.',
  });
}

export function useDeleteActivity() {
  return useApiMutation({
    mutationFn: (id: string) => apiSend<undefined>('DELETE', `${ACTIVITIES_PATH}/${pathId(id)}`),
    invalidate: [listQueryKey(ACTIVITIES_PATH), listQueryKey(COMMUNICATIONS_PATH)],
    successMessage: 'Activity deleted.',
    errorMessage: 'A problem occurred deleting the activity. Please try again.',
  });
}

// ---------------------------------------------------------------------------------------------
// Internal notification and the external report

/**
 * `GET /{id}/sendInternalNotification` (spec 001 §8): "Internal Notification sent." or
 * "Internal Notification failed." with " No WUCOMM Id was provided." when the row has none.
 */
export function useNotifyInternal() {
  return useApiMutation({
    mutationFn: (id: string | null | undefined) =>
      id
        ? apiGet<{ message: string }>(`${COMMUNICATIONS_PATH}/${pathId(id)}/sendInternalNotification`)
        : Promise.reject(new Error(COMMUNICATION_MESSAGES.notifyFailed + COMMUNICATION_MESSAGES.notifyNoId)),
    successMessage: COMMUNICATION_MESSAGES.notifySent,
    // The server's answer starts with the spec's text and may say why (no address, no id).
    errorMessage: (error) =>
      error.message.startsWith(COMMUNICATION_MESSAGES.notifyFailed)
        ? error.message
        : COMMUNICATION_MESSAGES.notifyFailed,
  });
}

/** Publishes the external report; publishing again keeps the current link. */
export function usePublishReport(id: string) {
  return useApiMutation({
    mutationFn: () =>
      apiSend<{ externalReportPath: string }>('POST', `${COMMUNICATIONS_PATH}/${pathId(id)}/externalReport`),
    invalidate: [listQueryKey(COMMUNICATIONS_PATH)],
    successMessage: 'External report published.',
    errorMessage: (error) => error.message,
  });
}

/** Revokes the published link: it answers "This report is not available." at once. */
export function useRevokeReport(id: string) {
  return useApiMutation({
    mutationFn: () => apiSend<undefined>('DELETE', `${COMMUNICATIONS_PATH}/${pathId(id)}/externalReport`),
    invalidate: [listQueryKey(COMMUNICATIONS_PATH)],
    successMessage: 'External report link revoked.',
    errorMessage: (error) => error.message,
  });
}

/** The full address of a published report, as a customer opens it. */
export function reportLink(path: string): string {
  return new URL(path, window.location.origin).toString();
}

/** The published report, no sign-in (`GET /api/v1/public/status/{token}`). */
export function publicReportQuery(token: string, refetchInterval: number) {
  return {
    queryKey: ['public-status', token],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiGet<PublicReport>(`/api/v1/public/status/${encodeURIComponent(token)}`, undefined, { signal }),
    refetchInterval,
    retry: false,
  } as const;
}

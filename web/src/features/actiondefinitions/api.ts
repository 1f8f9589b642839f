import { useQuery } from '@tanstack/react-query';
import type { ActionHistoryRow as ActionHistoryEntity } from '@cfs/contracts/action-histories';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import {
  type ActionDefinition as ActionDefinitionEntity,
  type ActionDefinitionValues,
  type ActionRunDetail,
  type ActionTestBody,
} from '@cfs/contracts/action-definitions';
import { apiGet, apiSend, ApiError } from '../../lib/api-client';
import { notFoundError, pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { fetchList, listQueryKey } from '../../lib/list-api';
import type { ODataParams } from '../../lib/list-query';
import { useApiMutation } from '../../lib/mutations';

/** The action catalogue and its history (spec 002 §2 Action catalogue, §7 Action catalogue and history). */
export const ACTION_DEFINITIONS_PATH = '/v1/actionDefinitions';
export const ACTION_HISTORIES_PATH = '/v1/actionHistories';

export type ActionDefinition = JsonOf<ActionDefinitionEntity>;
export type ActionHistoryRow = JsonOf<ActionHistoryEntity>;
export type ActionHistoryDetail = ActionHistoryRow & ActionRunDetail;
export interface DependentProtocol {
  protocolId: number;
  name: string;
}
export interface DependentRule {
  ruleId: string;
  name: string;
}
/** How many times a polled history is read while it is empty. */
const POLL_TRIES = 30;
const invalidate = [listQueryKey(ACTION_DEFINITIONS_PATH), ['actionDefinition']];

/** The id comes from the address (`?actionDefinitionId=`): checked, and encoded into the path. */
export function useActionDefinition(id: string | null) {
  return useQuery({
    queryKey: ['actionDefinition', id],
    queryFn: ({ signal }) =>
      isGuid(id)
        ? apiGet<ActionDefinition>(`${ACTION_DEFINITIONS_PATH}/${pathId(id)}`, undefined, { signal })
        : Promise.reject(notFoundError()),
    enabled: id !== null && id !== 'new',
  });
}

export function useSaveActionDefinition(id: string) {
  return useApiMutation({
    mutationFn: (input: ActionDefinitionValues) =>
      id === 'new'
        ? apiSend<ActionDefinition>('PUT', ACTION_DEFINITIONS_PATH, input)
        : apiSend<ActionDefinition>('POST', `${ACTION_DEFINITIONS_PATH}/${pathId(id)}`, input),
    invalidate,
    successMessage: 'Action definition saved.',
    errorMessage: AUTOMATION_MESSAGES.actionSaveFailed,
  });
}

/** Spec 002 §7, §8: the answer's message, else 'Action Definition deleted successfully.'; a failure shows the error text. */
export function useDeleteActionDefinition() {
  return useApiMutation({
    mutationFn: (id: string) =>
      apiSend<{ message?: string } | undefined>('DELETE', `${ACTION_DEFINITIONS_PATH}/${pathId(id)}`),
    invalidate,
    successMessage: (answer) => answer?.message || AUTOMATION_MESSAGES.actionDeleted,
    errorMessage: (error) => deleteFailureText(error),
  });
}

/** The failure's own text: the server's `message` (also `error.data.message` in the spec's older form). */
export function deleteFailureText(error: Error): string {
  if (error instanceof ApiError) {
    const body = error.body as { message?: string; error?: { data?: { message?: string } } } | undefined;
    return body?.error?.data?.message ?? body?.message ?? error.message;
  }
  return error.message;
}

/** POST v1/actionDefinitions/{id}/test: the test message's id (spec 002 §4); the drawer then reads its history. */
export function useTestActionDefinition(id: string) {
  return useApiMutation({
    mutationFn: (body: ActionTestBody) =>
      apiSend<{ id: string }>('POST', `${ACTION_DEFINITIONS_PATH}/${pathId(id)}/test`, body),
    errorMessage: AUTOMATION_MESSAGES.actionTestFailed,
  });
}

/** What uses the action (spec 002 §4 deletion in two steps): its protocols and its rules. */
export function useActionDependencies(id: string | null) {
  const protocols = useQuery({
    queryKey: ['actionDefinition', id, 'protocols'],
    queryFn: ({ signal }) =>
      apiGet<DependentProtocol[]>(
        `/v1/protocols/GetProtocolsForAction(actionDefinitionId=${pathId(id ?? '')})`,
        undefined,
        { signal },
      ),
    enabled: isGuid(id),
  });
  const rules = useQuery({
    queryKey: ['actionDefinition', id, 'rules'],
    queryFn: ({ signal }) =>
      apiGet<DependentRule[]>(`/v1/rules/GetRulesForAction(actionDefinitionId=${pathId(id ?? '')})`, undefined, {
        signal,
      }),
    enabled: isGuid(id),
  });
  return { protocols, rules };
}

/**
 * Action history entries of one OData filter (``actionDefinitionId eq ${id}``, ``messageId eq '…'``),
 * newest first, with the action's name. `pollMs` reads again until an entry is there (a test's run
 * arrives a moment after the test is sent).
 */
export function useActionHistories(filter: string | null, options: { top?: number; pollMs?: number } = {}) {
  const query: ODataParams = {
    $filter: filter ?? '',
    $orderby: 'actionProcessed desc',
    $top: String(options.top ?? 50),
    $count: 'true',
    $expand: 'actionDefinition',
  };
  return useQuery({
    queryKey: listQueryKey(ACTION_HISTORIES_PATH, query),
    queryFn: ({ signal }) => fetchList<ActionHistoryRow>(ACTION_HISTORIES_PATH, query, signal),
    enabled: filter !== null,
    // A few tries, then the user's own refresh (reopening) reads again.
    refetchInterval: (current) =>
      options.pollMs && (current.state.data?.rows.length ?? 0) === 0 && current.state.dataUpdateCount < POLL_TRIES
        ? options.pollMs
        : false,
  });
}

/** One entry with what was sent and what came back (the detail dialog). */
export function useActionHistoryDetail(id: number | null) {
  return useQuery({
    queryKey: ['actionHistory', id],
    queryFn: ({ signal }) =>
      apiGet<ActionHistoryDetail>(`${ACTION_HISTORIES_PATH}/${pathId(id ?? 0)}`, undefined, { signal }),
    enabled: id !== null,
  });
}

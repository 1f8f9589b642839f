import { useQuery } from '@tanstack/react-query';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import {
  type Protocol as ProtocolEntity,
  type ProtocolAction as ProtocolActionEntity,
  type ProtocolActionInput,
  type ProtocolInput,
} from '@cfs/contracts/protocols';
import type { RuleActionDefinition } from '@cfs/contracts/rule-options';
import { apiGet, apiSend } from '../../lib/api-client';
import { notFoundError, pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { listQueryKey, listQueryOptions } from '../../lib/list-api';

import { useApiMutation } from '../../lib/mutations';

/** Protocols and protocol actions (spec 002 §2 Protocols, §7 "Protocols and protocol actions"). */
export const PROTOCOLS_PATH = '/v1/protocols';
export const PROTOCOL_ACTIONS_PATH = '/v1/protocolActions';

export type Protocol = JsonOf<ProtocolEntity> & { tenant?: { tenantId: string; name: string } | null };
export type ProtocolAction = JsonOf<ProtocolActionEntity>;
export interface MatchedRule {
  ruleId: string;
  name: string;
  enabled: boolean;
}

const protocolsInvalidate = [listQueryKey(PROTOCOLS_PATH), ['protocol']];
const stepsInvalidate = [listQueryKey(PROTOCOL_ACTIONS_PATH)];
const protocolIdOf = (id: string | null): number | null => (id !== null && /^\d+$/.test(id) ? Number(id) : null);

/** The id comes from the address (`?protocolId=`): digits only. */
export function useProtocol(id: string | null) {
  const protocolId = protocolIdOf(id);
  return useQuery({
    queryKey: ['protocol', id],
    queryFn: ({ signal }) =>
      protocolId !== null
        ? apiGet<Protocol>(`${PROTOCOLS_PATH}/${protocolId}`, undefined, { signal })
        : Promise.reject(notFoundError()),
    enabled: id !== null && id !== 'new',
  });
}

export function useSaveProtocol(id: string) {
  return useApiMutation({
    mutationFn: (input: ProtocolInput) =>
      id === 'new'
        ? apiSend<Protocol>('PUT', PROTOCOLS_PATH, input)
        : apiSend<Protocol>('POST', `${PROTOCOLS_PATH}/${pathId(id)}`, input),
    invalidate: protocolsInvalidate,
    successMessage: 'Protocol saved.',
    errorMessage: AUTOMATION_MESSAGES.protocolSaveFailed,
  });
}

export function useDeleteProtocol() {
  return useApiMutation({
    mutationFn: (protocol: Protocol) =>
      apiSend<{ message: string }>('DELETE', `${PROTOCOLS_PATH}/${protocol.protocolId}`),
    invalidate: [...protocolsInvalidate, ...stepsInvalidate],
    successMessage: (answer) => answer.message,
    errorMessage: (error) => error.message,
  });
}

/** The Assigned Rules tab: the rules that open work units following the protocol. */
export function useMatchedRules(protocolId: number | undefined) {
  return useQuery({
    queryKey: ['protocol', 'matchedRules', protocolId ?? 0],
    queryFn: ({ signal }) =>
      apiGet<{ value: MatchedRule[]; count: number }>(
        `${PROTOCOLS_PATH}/GetMatchedRules(id=${protocolId ?? 0})`,
        undefined,
        { signal },
      ),
    enabled: protocolId !== undefined,
  });
}

/** A protocol's steps, by event and sequence, with the action each runs. */
export function useProtocolActions(protocolId: number | undefined) {
  return useQuery({
    ...listQueryOptions<ProtocolAction>(
      PROTOCOL_ACTIONS_PATH,
      { pageSize: 100 },
      { fixedFilter: `protocolId eq ${protocolId ?? 0}`, expand: 'actionDefinition' },
    ),
    enabled: protocolId !== undefined,
  });
}

export function useSaveProtocolAction(id: string) {
  return useApiMutation({
    mutationFn: (input: ProtocolActionInput) =>
      id === 'new'
        ? apiSend<ProtocolAction>('PUT', PROTOCOL_ACTIONS_PATH, input)
        : apiSend<ProtocolAction>('POST', `${PROTOCOL_ACTIONS_PATH}/${pathId(id)}`, input),
    invalidate: stepsInvalidate,
    successMessage: 'Protocol action saved.',
    errorMessage: AUTOMATION_MESSAGES.actionSaveFailed,
  });
}

export function useDeleteProtocolAction() {
  return useApiMutation({
    mutationFn: (step: ProtocolAction) =>
      apiSend<{ message: string }>('DELETE', `${PROTOCOL_ACTIONS_PATH}/${pathId(step.protocolActionId)}`),
    invalidate: stepsInvalidate,
    successMessage: (answer) => answer.message,
    errorMessage: (error) => error.message,
  });
}

/** GET v1/actionDefinitions/GetActionDefinitionsForProtocols(tenantId=): the actions a step of the tenant's protocol may run. */
export function useProtocolActionDefinitions(tenantId: string | null) {
  return useQuery({
    queryKey: ['protocol', 'actionDefinitions', tenantId ?? ''],
    queryFn: ({ signal }) =>
      apiGet<RuleActionDefinition[]>(
        `/v1/actionDefinitions/GetActionDefinitionsForProtocols(tenantId=${pathId(tenantId ?? '')})`,
        undefined,
        { signal },
      ),
    enabled: isGuid(tenantId),
    staleTime: 60_000,
  });
}

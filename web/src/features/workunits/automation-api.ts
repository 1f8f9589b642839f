import { useQuery } from '@tanstack/react-query';
import type { ManualAction as ManualActionEntity, RenderedEmail, TriggerInput } from '@cfs/contracts/automation';
import type { Protocol as ProtocolEntity } from '@cfs/contracts/protocols';
import { apiGet, apiSend } from '../../lib/api-client';
import { pathId } from '../../lib/ids';
import { guidLiteral, isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { listQueryOptions } from '../../lib/list-api';
import { useApiMutation } from '../../lib/mutations';

/** A work unit's protocol, its manual actions and their triggers (spec 001 §2 Pending Actions, §3 Manual action, §7). */
export type ManualAction = JsonOf<ManualActionEntity>;
export type ProtocolOption = Pick<JsonOf<ProtocolEntity>, 'protocolId' | 'name' | 'description' | 'tenantId'>;
/** `current`: the steps waiting on the event of the unit's state (Pending Actions); `all`: every manual step of the protocol (Protocols). */
export type ManualActionScope = 'current' | 'all';

export const PROTOCOLS_PATH = '/v1/protocols';
/** Every key of a unit's manual actions starts with this, so one invalidation refreshes both tabs. */
export const manualActionsKey = (workUnitId: number) => ['workunit', workUnitId, 'manualActions'] as const;

/** GET /v1/workunits/{workUnitId}/manualActions?scope=current|all. */
export function useManualActions(workUnitId: number, scope: ManualActionScope, enabled = true) {
  return useQuery({
    queryKey: [...manualActionsKey(workUnitId), scope],
    queryFn: ({ signal }) =>
      apiGet<ManualAction[]>(`/v1/workunits/${pathId(workUnitId)}/manualActions`, { scope }, { signal }),
    enabled,
  });
}

export interface TriggerRequest {
  action: ManualAction;
  body: TriggerInput;
}

/**
 * POST /v1/workunits/{workUnitId}/protocolActions/{protocolActionId}/trigger (202). No toast here:
 * the tab words the failure with the action's name (spec 001 §8).
 */
export function useTriggerManualAction(workUnitId: number) {
  return useApiMutation({
    mutationFn: ({ action, body }: TriggerRequest) =>
      apiSend<unknown>(
        'POST',
        `/v1/workunits/${pathId(workUnitId)}/protocolActions/${pathId(action.protocolActionId)}/trigger`,
        body,
      ),
  });
}

/** POST /v1/emailtemplates/render: the email the Send Email step would send with these values. */
export function useEmailPreview(
  workUnitId: number,
  protocolActionId: string | null,
  userDefinedParams: Record<string, string>,
  enabled: boolean,
) {
  return useQuery({
    queryKey: ['emailPreview', workUnitId, protocolActionId, userDefinedParams],
    queryFn: ({ signal }) =>
      apiSendPreview({ workUnitId, protocolActionId: protocolActionId ?? '', userDefinedParams }, signal),
    enabled: enabled && protocolActionId !== null,
    staleTime: 30_000,
  });
}

function apiSendPreview(
  body: { workUnitId: number; protocolActionId: string; userDefinedParams: Record<string, string> },
  signal: AbortSignal,
): Promise<RenderedEmail> {
  return apiSend<RenderedEmail>('POST', '/v1/emailtemplates/render', body, { signal });
}

/** The protocols a unit of the tenant may follow: the tenant's and the shared ones, by name. */
export function useProtocolOptions(tenantId: string | null | undefined) {
  return useQuery({
    ...listQueryOptions<ProtocolOption>(
      PROTOCOLS_PATH,
      { pageSize: 100, sort: [{ field: 'name', direction: 'asc' }] },
      {
        fixedFilter: isGuid(tenantId) ? `tenantId eq ${guidLiteral(tenantId)} or tenantId eq null` : 'tenantId eq null',
      },
    ),
    staleTime: 60_000,
  });
}

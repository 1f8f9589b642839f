import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListResponse } from '@cfs/contracts/api';
import type {
  Subscription as SubscriptionEntity,
  SubscriptionInput,
  TenantInput,
  TenantSecret as TenantSecretEntity,
  TenantSecretValue as TenantSecretValueEntity,
} from '@cfs/contracts/tenants';
import {
  AGENT_UPDATE_MESSAGES,
  AGENT_UPDATE_POLICIES_PATH,
  type AgentUpdatePolicy as AgentUpdatePolicyEntity,
  type AgentUpdatePolicyInput,
} from '@cfs/contracts/agent-updates';
import { TENANT_MESSAGES } from '@cfs/contracts/values/tenants';
import { apiGet, apiSend } from '../../lib/api-client';
import { pathId } from '../../lib/ids';
import type { JsonOf } from '../../lib/json-types';
import { listQueryKey } from '../../lib/list-api';
import { lookupKeys, tenantQuery, type TenantDetails } from '../../lib/lookups';
import { useApiMutation } from '../../lib/mutations';

/** Tenants, their secrets and subscriptions (spec 001 §7 Tenants, Subscriptions). */
export const TENANTS_PATH = '/v1/tenants';
export const SUBSCRIPTIONS_PATH = '/v1/subscriptions';

export type Tenant = TenantDetails;
export type Subscription = JsonOf<SubscriptionEntity>;
export type TenantSecret = JsonOf<TenantSecretEntity>;
export type TenantSecretValue = JsonOf<TenantSecretValueEntity>;
export type AgentUpdatePolicy = JsonOf<AgentUpdatePolicyEntity>;

/** `GET v1/tenants({id})`, shared with the work unit form (`lib/lookups.ts`). */
export { useTenant } from '../../lib/lookups';

const secretsKey = (tenantId: string) => ['tenant', tenantId, 'secrets'] as const;

/**
 * A tenant change shows everywhere: the tenants list, the tenant itself, the header's tenant
 * lookup and the assignment groups the work unit form offers.
 */
function useTenantMutation<TVariables>(
  mutationFn: (variables: TVariables) => Promise<Tenant>,
  successMessage?: (tenant: Tenant) => string,
) {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn,
    onSuccess: (tenant) => queryClient.setQueryData(tenantQuery(tenant.tenantId).queryKey, tenant),
    ...(successMessage ? { successMessage } : {}),
    invalidate: (tenant) => [
      listQueryKey(TENANTS_PATH),
      lookupKeys.tenants,
      lookupKeys.assignmentGroups(tenant.tenantId),
    ],
    errorMessage: TENANT_MESSAGES.saveFailed,
  });
}

/** `PUT v1/tenants` (create) or `POST v1/tenants/{id}` (update): "Tenant {name} saved.". */
export function useSaveTenant(id: string) {
  return useTenantMutation(
    (input: TenantInput) =>
      id === 'new'
        ? apiSend<Tenant>('PUT', TENANTS_PATH, input)
        : apiSend<Tenant>('POST', `${TENANTS_PATH}/${pathId(id)}`, input),
    (tenant) => TENANT_MESSAGES.saved(tenant.name),
  );
}

/**
 * `POST v1/tenants/{id}/toggledisabled` (spec 001 §4: enabled is toggled by a dedicated action; the
 * spec spells it `toggledisabled/{id}`, which the server answers too).
 */
export function useToggleTenant() {
  return useTenantMutation((tenantId: string) =>
    apiSend<Tenant>('POST', `${TENANTS_PATH}/${pathId(tenantId)}/toggledisabled`),
  );
}

// ---------------------------------------------------------------------------------------------
// Secrets: the list never carries values; the latest value is read on demand (audited).

export function useTenantSecrets(tenantId: string) {
  return useQuery({
    queryKey: secretsKey(tenantId),
    queryFn: ({ signal }) =>
      apiGet<ListResponse<TenantSecret>>(`${TENANTS_PATH}/${pathId(tenantId)}/secrets`, undefined, { signal }),
    select: (response) => response.value,
  });
}

function useSecretMutation<TVariables, TResult>(
  tenantId: string,
  mutationFn: (variables: TVariables) => Promise<TResult>,
) {
  return useApiMutation({ mutationFn, invalidate: [secretsKey(tenantId)], errorMessage: TENANT_MESSAGES.saveFailed });
}

/** `PUT v1/tenants/{id}/secrets`: a new secret, or a new version when the name exists. */
export function useAddSecret(tenantId: string) {
  return useSecretMutation(tenantId, (input: { name: string; value: string }) =>
    apiSend<TenantSecret>('PUT', `${TENANTS_PATH}/${pathId(tenantId)}/secrets`, input),
  );
}

/** `POST v1/tenants/{id}/secrets/{secretId}`: a new version of the value. */
export function useSetSecretValue(tenantId: string) {
  return useSecretMutation(tenantId, ({ secretId, value }: { secretId: string; value: string }) =>
    apiSend<TenantSecret>('POST', `${TENANTS_PATH}/${pathId(tenantId)}/secrets/${pathId(secretId)}`, { value }),
  );
}

export function useDeleteSecret(tenantId: string) {
  return useSecretMutation(tenantId, (secretId: string) =>
    apiSend<unknown>('DELETE', `${TENANTS_PATH}/${pathId(tenantId)}/secrets/${pathId(secretId)}`),
  );
}

export const SECRET_READ_FAILED = 'Unable to read the secret, please try again.';

/**
 * `GET v1/tenants/{id}/secrets/{secretId}/versions/latest`, only when the user asks. A mutation
 * rather than a query: the value is held by the screen that shows it, never in the query cache;
 * the screen resets the mutation once it holds the value (`gcTime: 0` drops it on unmount).
 */
export function useRevealSecret(tenantId: string) {
  return useApiMutation({
    mutationFn: (secretId: string) =>
      apiGet<TenantSecretValue>(`${TENANTS_PATH}/${pathId(tenantId)}/secrets/${pathId(secretId)}/versions/latest`),
    errorMessage: SECRET_READ_FAILED,
    gcTime: 0,
  });
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

/** `PUT v1/subscriptions` or `POST v1/subscriptions/{id}`; the header's tenant > subscription picker reads them too. */
export function useSaveSubscription(id: string) {
  return useApiMutation({
    mutationFn: (input: SubscriptionInput) =>
      id === 'new'
        ? apiSend<Subscription>('PUT', SUBSCRIPTIONS_PATH, input)
        : apiSend<Subscription>('POST', `${SUBSCRIPTIONS_PATH}/${pathId(id)}`, input),
    invalidate: [listQueryKey(SUBSCRIPTIONS_PATH), lookupKeys.subscriptions],
    errorMessage: TENANT_MESSAGES.subscriptionSaveFailed,
  });
}

const agentUpdatesKey = (tenantId: string) => ['tenant', tenantId, 'agentUpdates'] as const;

/** `GET v1/agentUpdatePolicies/{tenantId}`: the agent version its devices run, and how its rollout goes. */
export function useAgentUpdatePolicy(tenantId: string) {
  return useQuery({
    queryKey: agentUpdatesKey(tenantId),
    queryFn: ({ signal }) =>
      apiGet<AgentUpdatePolicy>(`${AGENT_UPDATE_POLICIES_PATH}/${pathId(tenantId)}`, undefined, { signal }),
    // The rollout moves while the tab is open: devices update, or one goes back.
    refetchInterval: 10_000,
  });
}

export function useSaveAgentUpdatePolicy(tenantId: string) {
  return useApiMutation({
    mutationFn: (input: AgentUpdatePolicyInput) =>
      apiSend<AgentUpdatePolicy>('PUT', `${AGENT_UPDATE_POLICIES_PATH}/${pathId(tenantId)}`, input),
    invalidate: [agentUpdatesKey(tenantId)],
    successMessage: AGENT_UPDATE_MESSAGES.saved,
    errorMessage: TENANT_MESSAGES.saveFailed,
  });
}

export function useResumeAgentRollout(tenantId: string) {
  return useApiMutation({
    mutationFn: () => apiSend<AgentUpdatePolicy>('POST', `${AGENT_UPDATE_POLICIES_PATH}/${pathId(tenantId)}/resume`),
    invalidate: [agentUpdatesKey(tenantId)],
    successMessage: AGENT_UPDATE_MESSAGES.resumed,
    errorMessage: TENANT_MESSAGES.saveFailed,
  });
}

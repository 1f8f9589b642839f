import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListResponse } from '@cfs/contracts/api';
import {
  TENANT_MESSAGES,
  type Subscription as SubscriptionEntity,
  type SubscriptionInput,
  type Tenant as TenantEntity,
  type TenantInput,
  type TenantSecret as TenantSecretEntity,
  type TenantSecretValue as TenantSecretValueEntity,
} from '@cfs/contracts/tenants';
import { subscriptionsLookupQuery, tenantsLookupQuery } from '../../app/lookups';
import { apiGet, apiSend, isReportedByClient } from '../../lib/api-client';
import type { JsonOf } from '../../lib/json-types';
import { listQueryKey } from '../../lib/list-api';
import { useToast } from '../../lib/toast';

/** Tenants, their secrets and subscriptions (spec 001 §7 Tenants, Subscriptions). */
export const TENANTS_PATH = '/v1/tenants';
export const SUBSCRIPTIONS_PATH = '/v1/subscriptions';

export type Tenant = JsonOf<TenantEntity>;
export type Subscription = JsonOf<SubscriptionEntity>;
export type TenantSecret = JsonOf<TenantSecretEntity>;
export type TenantSecretValue = JsonOf<TenantSecretValueEntity>;

const tenantKey = (id: string) => ['tenant', id] as const;
const secretsKey = (tenantId: string) => ['tenant', tenantId, 'secrets'] as const;

/** `GET v1/tenants({id})`: the full tenant with its custom fields and intake schema. */
export function useTenant(id: string | null) {
  return useQuery({
    queryKey: tenantKey(id ?? ''),
    queryFn: ({ signal }) => apiGet<Tenant>(`${TENANTS_PATH}(${id})`, undefined, { signal }),
    enabled: id !== null && id !== 'new',
  });
}

/** The tenants list, the tenant itself and the header's tenant lookup all show what changed. */
function useTenantChanged() {
  const queryClient = useQueryClient();
  return (tenant: Tenant) => {
    queryClient.setQueryData(tenantKey(tenant.tenantId), tenant);
    void queryClient.invalidateQueries({ queryKey: listQueryKey(TENANTS_PATH) });
    void queryClient.invalidateQueries({ queryKey: tenantsLookupQuery.queryKey });
  };
}

/** `PUT v1/tenants` (create) or `POST v1/tenants/{id}` (update). */
export function useSaveTenant(id: string) {
  const changed = useTenantChanged();
  const toast = useToast();
  return useMutation({
    mutationFn: (input: TenantInput) => (id === 'new' ? apiSend<Tenant>('PUT', TENANTS_PATH, input) : apiSend<Tenant>('POST', `${TENANTS_PATH}/${id}`, input)),
    onSuccess: changed,
    onError: (error) => {
      if (!isReportedByClient(error)) toast.error(TENANT_MESSAGES.saveFailed);
    },
  });
}

/** `POST v1/tenants/toggledisabled/{id}` (spec 001 §4: enabled is toggled by a dedicated action). */
export function useToggleTenant() {
  const changed = useTenantChanged();
  const toast = useToast();
  return useMutation({
    mutationFn: (tenantId: string) => apiSend<Tenant>('POST', `${TENANTS_PATH}/toggledisabled/${tenantId}`),
    onSuccess: changed,
    onError: (error) => {
      if (!isReportedByClient(error)) toast.error(TENANT_MESSAGES.saveFailed);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Secrets: the list never carries values; the latest value is read on demand (audited).

export function useTenantSecrets(tenantId: string) {
  return useQuery({
    queryKey: secretsKey(tenantId),
    queryFn: ({ signal }) => apiGet<ListResponse<TenantSecret>>(`${TENANTS_PATH}/${tenantId}/secrets`, undefined, { signal }),
    select: (response) => response.value,
  });
}

function useSecretMutation<TVariables, TResult>(tenantId: string, send: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secretsKey(tenantId) }),
    onError: (error) => {
      if (!isReportedByClient(error)) toast.error(TENANT_MESSAGES.saveFailed);
    },
  });
}

/** `PUT v1/tenants/{id}/secrets`: a new secret, or a new version when the name exists. */
export function useAddSecret(tenantId: string) {
  return useSecretMutation(tenantId, (input: { name: string; value: string }) => apiSend<TenantSecret>('PUT', `${TENANTS_PATH}/${tenantId}/secrets`, input));
}

/** `POST v1/tenants/{id}/secrets/{secretId}`: a new version of the value. */
export function useSetSecretValue(tenantId: string) {
  return useSecretMutation(tenantId, ({ secretId, value }: { secretId: string; value: string }) =>
    apiSend<TenantSecret>('POST', `${TENANTS_PATH}/${tenantId}/secrets/${secretId}`, { value }),
  );
}

export function useDeleteSecret(tenantId: string) {
  return useSecretMutation(tenantId, (secretId: string) => apiSend<unknown>('DELETE', `${TENANTS_PATH}/${tenantId}/secrets/${secretId}`));
}

export const SECRET_READ_FAILED = 'Unable to read the secret, please try again.';

/**
 * `GET v1/tenants/{id}/secrets/{secretId}/versions/latest`, only when the user asks. A mutation
 * rather than a query: the value is held by the screen that shows it, never in the query cache.
 */
export function useRevealSecret(tenantId: string) {
  const toast = useToast();
  return useMutation({
    mutationFn: (secretId: string) => apiGet<TenantSecretValue>(`${TENANTS_PATH}/${tenantId}/secrets/${secretId}/versions/latest`),
    gcTime: 0,
    onError: (error) => {
      if (!isReportedByClient(error)) toast.error(SECRET_READ_FAILED);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

/** `PUT v1/subscriptions` or `POST v1/subscriptions/{id}`; the header's tenant > subscription picker reads them too. */
export function useSaveSubscription(id: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (input: SubscriptionInput) =>
      id === 'new' ? apiSend<Subscription>('PUT', SUBSCRIPTIONS_PATH, input) : apiSend<Subscription>('POST', `${SUBSCRIPTIONS_PATH}/${id}`, input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: listQueryKey(SUBSCRIPTIONS_PATH) });
      void queryClient.invalidateQueries({ queryKey: subscriptionsLookupQuery.queryKey });
    },
    onError: (error) => {
      if (!isReportedByClient(error)) toast.error(TENANT_MESSAGES.subscriptionSaveFailed);
    },
  });
}

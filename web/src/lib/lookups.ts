import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SubscriptionLookup, TenantLookup, WorkUnitTypeLookup } from '@cfs/contracts/shell';
import type { Tenant } from '@cfs/contracts/tenants';
import type { categoryLookupSchema, subcategoryLookupSchema } from '@cfs/contracts/work-unit-settings';
import type { z } from 'zod';
import { apiGet } from './api-client';
import { notFoundError, pathId } from './ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from './json-types';

/**
 * The lookups several screens share (spec 000 §7, 001 §7): the shell's tenant > subscription
 * picker, the work unit form and filter chips, the category form. Each is cached under one key
 * here, and the saves that change one invalidate that key (`useApiMutation({ invalidate })`),
 * so every screen shows the change.
 *
 * @example
 *   const tenants = useTenantsLookup();
 *   useApiMutation({ mutationFn: saveCategory, invalidate: [listQueryKey(CATEGORIES_PATH), lookupKeys.categories] });
 */

export type TenantDetails = JsonOf<Tenant>;
export type CategoryLookup = z.infer<typeof categoryLookupSchema>;
export type SubcategoryLookup = z.infer<typeof subcategoryLookupSchema>;

/** Lists of choices change rarely, and this client's own saves invalidate them. */
const LOOKUP_STALE_MS = 5 * 60_000;

export const lookupKeys = {
  version: ['generallookup', 'version'],
  tenants: ['generallookup', 'tenants'],
  subscriptions: ['generallookup', 'subscriptions'],
  workUnitTypes: ['generallookup', 'workunittypes'],
  categories: ['generallookup', 'workunitcatgories'],
  subcategories: ['generallookup', 'workunitsubcatgories'],
  /** Every tenant's choice of locations (`/api/generallookup/locations?tenantId=`) sits under this prefix. */
  locations: ['generallookup', 'locations'],
  /** The tenant itself; its assignment groups and secrets sit under this prefix too. */
  tenant: (tenantId: string) => ['tenant', tenantId] as const,
  assignmentGroups: (tenantId: string) => ['tenant', tenantId, 'assignmentGroups'] as const,
} as const;

function generalLookup<T>(queryKey: readonly string[], path: string, staleTime = LOOKUP_STALE_MS) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => apiGet<T>(path, undefined, { signal }),
    staleTime,
  });
}

export const versionQuery = generalLookup<{ version: string }>(
  lookupKeys.version,
  '/api/generalLookup/version',
  Infinity,
);
export const tenantsLookupQuery = generalLookup<TenantLookup[]>(lookupKeys.tenants, '/api/generallookup/tenants');
export const subscriptionsLookupQuery = generalLookup<SubscriptionLookup[]>(
  lookupKeys.subscriptions,
  '/api/generallookup/subscriptions',
);
/** The form's choices ("Legacy" hidden, "Request" shown as "User Request" by the server). */
export const workUnitTypesLookupQuery = generalLookup<WorkUnitTypeLookup[]>(
  lookupKeys.workUnitTypes,
  '/api/generallookup/workunittypes',
);
/** The server's spelling ("catgories") is the spec's. */
export const categoriesLookupQuery = generalLookup<CategoryLookup[]>(
  lookupKeys.categories,
  '/api/generallookup/workunitcatgories',
);
export const subcategoriesLookupQuery = generalLookup<SubcategoryLookup[]>(
  lookupKeys.subcategories,
  '/api/generallookup/workunitsubcatgories',
);

/**
 * `GET v1/tenants({id})`: the full tenant (custom field definitions, intake schema). The edit
 * drawer reads it too, so it keeps the client's default stale time. An id that is no GUID is
 * not found, without a request.
 */
export function tenantQuery(tenantId: string) {
  return queryOptions({
    queryKey: lookupKeys.tenant(tenantId),
    queryFn: ({ signal }) =>
      isGuid(tenantId)
        ? apiGet<TenantDetails>(`/v1/tenants(${pathId(tenantId)})`, undefined, { signal })
        : Promise.reject(notFoundError()),
  });
}

/** `GET v1/tenants/{id}/assignmentGroups`. */
export function assignmentGroupsQuery(tenantId: string) {
  return queryOptions({
    queryKey: lookupKeys.assignmentGroups(tenantId),
    queryFn: ({ signal }) =>
      isGuid(tenantId)
        ? apiGet<string[]>(`/v1/tenants/${pathId(tenantId)}/assignmentGroups`, undefined, { signal })
        : Promise.reject(notFoundError()),
    staleTime: LOOKUP_STALE_MS,
  });
}

export function useVersion(): string | undefined {
  return useQuery(versionQuery).data?.version;
}

export function useTenantsLookup() {
  return useQuery(tenantsLookupQuery);
}

/** A tenant's name from the caller's tenants (undefined while they load, or for a tenant not among them). */
export function useTenantName(tenantId: string | null | undefined): string | undefined {
  return useTenantsLookup().data?.find((tenant) => tenant.tenantId === tenantId)?.name;
}

/** Subscriptions are fetched again whenever a screen that uses them mounts (spec 000 §7). */
export function useSubscriptionsLookup() {
  return useQuery({ ...subscriptionsLookupQuery, refetchOnMount: 'always' });
}

/** A choice of a value and its label, as a form's select field offers it. */
export interface LookupOption {
  value: string;
  label: string;
}

/** The caller's tenants as a form's Tenant choice (none while the lookup loads or failed). */
export function useTenantOptions(): LookupOption[] {
  return (useTenantsLookup().data ?? []).map((tenant) => ({ value: tenant.tenantId, label: tenant.name }));
}

/** The subscriptions of `tenantId` as a form's Subscription choice (none without a tenant). */
export function useSubscriptionOptions(tenantId: string | null | undefined): LookupOption[] {
  return (useSubscriptionsLookup().data ?? [])
    .filter((subscription) => subscription.tenantId === tenantId)
    .map((subscription) => ({ value: subscription.subscriptionId, label: subscription.name }));
}

export function useWorkUnitTypesLookup() {
  return useQuery(workUnitTypesLookupQuery);
}

export function useCategoriesLookup() {
  return useQuery(categoriesLookupQuery);
}

export function useSubcategoriesLookup() {
  return useQuery(subcategoriesLookupQuery);
}

/** The tenant by id; nothing is fetched while the id is empty or 'new' (a tenant being created). */
export function useTenant(tenantId: string | null | undefined) {
  return useQuery({ ...tenantQuery(tenantId ?? ''), enabled: !!tenantId && tenantId !== 'new' });
}

export function useAssignmentGroups(tenantId: string | null | undefined) {
  return useQuery({ ...assignmentGroupsQuery(tenantId ?? ''), enabled: !!tenantId });
}

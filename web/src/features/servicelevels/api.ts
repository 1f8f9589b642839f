import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SERVICE_LEVEL_MESSAGES, type ServiceLevels, type ServiceLevelsInput } from '@cfs/contracts/service-levels';
import { apiGet, apiSend, ApiError } from '../../lib/api-client';
import { pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { useApiMutation } from '../../lib/mutations';

/** Service level definitions (docs/features/service-levels.md "Definitions"). */
export type ServiceLevelsAnswer = JsonOf<ServiceLevels>;

/**
 * Every definition the screen reads sits under this prefix: a change of the installation's levels
 * changes those of every tenant that follows them. (The work unit panel's clocks are under
 * `['servicelevels', 'timers']`, which these changes leave alone.)
 */
const DEFINITIONS_KEY = ['servicelevels', 'definitions'] as const;

/** Whose levels: a tenant's id, or null for the installation's. */
const definitionsKey = (tenantId: string | null) => [...DEFINITIONS_KEY, tenantId ?? 'installation'] as const;

const definitionsPath = (tenantId: string | null) =>
  tenantId === null ? '/v1/servicelevels/installation' : `/v1/servicelevels/${pathId(tenantId)}`;

/** `GET v1/servicelevels/{tenantId}` (the installation's when the tenant has none: `inherited`), or `/installation`. */
export function useServiceLevels(tenantId: string | null) {
  return useQuery({
    queryKey: definitionsKey(tenantId),
    queryFn: ({ signal }) => apiGet<ServiceLevelsAnswer>(definitionsPath(tenantId), undefined, { signal }),
    enabled: tenantId === null || isGuid(tenantId),
  });
}

/** A failure the form shows itself: a 400's field texts go onto the fields, and a 403 is the server's word on who may. */
function toastedFailure(error: Error): string | undefined {
  if (error instanceof ApiError && error.status === 400 && error.body?.errors) return undefined;
  return error.message;
}

/**
 * `PUT v1/servicelevels/{tenantId}` (or `/installation`): the levels written whole. The
 * installation's are changed only by staff of every tenant, which the screen cannot tell: the
 * server's refusal is not the shell's access toast but the form's message (`allowForbidden`).
 */
export function useSaveServiceLevels(tenantId: string | null) {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: (input: ServiceLevelsInput) =>
      apiSend<ServiceLevelsAnswer>('PUT', definitionsPath(tenantId), input, { allowForbidden: tenantId === null }),
    onSuccess: (saved) => queryClient.setQueryData(definitionsKey(tenantId), saved),
    invalidate: [DEFINITIONS_KEY],
    successMessage: SERVICE_LEVEL_MESSAGES.saved,
    errorMessage: toastedFailure,
  });
}

/** `DELETE v1/servicelevels/{tenantId}`: the tenant follows the installation's levels again. */
export function useResetServiceLevels(tenantId: string) {
  const queryClient = useQueryClient();
  return useApiMutation({
    mutationFn: () => apiSend<ServiceLevelsAnswer>('DELETE', definitionsPath(tenantId)),
    onSuccess: (levels) => queryClient.setQueryData(definitionsKey(tenantId), levels),
    invalidate: [definitionsKey(tenantId)],
    successMessage: SERVICE_LEVEL_MESSAGES.reset,
    errorMessage: (error) => error.message,
  });
}

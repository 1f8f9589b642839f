import { useQuery } from '@tanstack/react-query';
import type { SavedView, SavedViewGrid, SavedViewInput } from '@cfs/contracts/saved-views';
import { SAVED_VIEW_MESSAGES } from '@cfs/contracts/values/saved-views';
import { apiGet, apiSend } from './api-client';
import { pathId } from './ids';
import { isGuid } from '@cfs/contracts/values/odata';
import { useApiMutation } from './mutations';

/**
 * A grid's saved views in a tenant (`/v1/savedviews/{grid}`): the user's own and those shared
 * with the tenant. Used by `components/saved-views-bar.tsx`.
 */
const savedViewsPath = (grid: SavedViewGrid) => `/v1/savedviews/${grid}`;
export const savedViewsKey = (grid: SavedViewGrid, tenantId: string | null) => ['savedViews', grid, tenantId] as const;

export function useSavedViews(grid: SavedViewGrid, tenantId: string | null) {
  return useQuery({
    queryKey: savedViewsKey(grid, tenantId),
    queryFn: async ({ signal }) =>
      (await apiGet<{ value: SavedView[] }>(savedViewsPath(grid), { tenantId: tenantId ?? '' }, { signal })).value,
    enabled: isGuid(tenantId),
  });
}

export function useSaveView(grid: SavedViewGrid, tenantId: string | null) {
  return useApiMutation({
    mutationFn: (input: SavedViewInput) => apiSend<SavedView>('PUT', savedViewsPath(grid), input),
    invalidate: [savedViewsKey(grid, tenantId)],
    // Field texts (a name already taken) show on the dialog's field; anything else is toasted.
    errorMessage: (error) =>
      error.message.includes(SAVED_VIEW_MESSAGES.nameTaken) ? undefined : SAVED_VIEW_MESSAGES.saveFailed,
  });
}

export function useDeleteView(grid: SavedViewGrid, tenantId: string | null) {
  return useApiMutation({
    mutationFn: (savedViewId: string) => apiSend<void>('DELETE', `${savedViewsPath(grid)}/${pathId(savedViewId)}`),
    invalidate: [savedViewsKey(grid, tenantId)],
    errorMessage: SAVED_VIEW_MESSAGES.deleteFailed,
  });
}

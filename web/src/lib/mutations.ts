import { useMutation, useQueryClient, type QueryKey, type UseMutationResult } from '@tanstack/react-query';
import { isReportedByClient } from './api-client';
import { useToast } from './toast';

export interface ApiMutationOptions<TVariables, TResult> {
  mutationFn: (variables: TVariables) => Promise<TResult>;
  /**
   * Query keys (prefixes) refreshed after a success: the lists and lookups the change shows in.
   * A function when they depend on the answer (the saved item's id).
   */
  invalidate?: readonly QueryKey[] | ((result: TResult, variables: TVariables) => readonly QueryKey[]);
  /**
   * The error toast (the spec's text). A function chooses by the error; no text, no toast (the
   * caller shows the failure). 401 and 403 never toast here: the API client answered them.
   */
  errorMessage?: string | ((error: Error) => string | readonly string[] | undefined);
  /** The success toast; a function words it from the answer ("Work unit #42 saved."). */
  successMessage?: string | ((result: TResult, variables: TVariables) => string);
  /**
   * Runs first after a success, before the refresh: put the answer in the cache, or clear the
   * input that made it. A `mutate(…, { onSuccess })` callback runs only after the refresh, when
   * the user may already be typing the next entry, which it would wipe.
   */
  onSuccess?: (result: TResult, variables: TVariables) => void;
  /** 0 for an answer that holds a secret: not kept once the screen lets go of the mutation. */
  gcTime?: number;
}

/**
 * A mutation with the machinery's plumbing: refresh what it changed, toast the success and the failure.
 * `mutateAsync` settles once the invalidated queries that are on screen have been fetched again.
 *
 * @example
 *   export function useSaveLocation(id: string) {
 *     return useApiMutation({
 *       mutationFn: (input: LocationInput) => apiSend<Location>('POST', `${LOCATIONS_PATH}/${pathId(id)}`, input),
 *       invalidate: [listQueryKey(LOCATIONS_PATH), lookupKeys.locations],
 *       successMessage: 'Location saved.',
 *       errorMessage: 'A problem occurred saving the location. Please try again.',
 *     });
 *   }
 */
export function useApiMutation<TVariables = void, TResult = unknown>(
  options: ApiMutationOptions<TVariables, TResult>,
): UseMutationResult<TResult, Error, TVariables> {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { mutationFn, invalidate = [], successMessage, errorMessage, onSuccess, gcTime } = options;
  return useMutation({
    mutationFn,
    ...(gcTime === undefined ? {} : { gcTime }),
    onSuccess: async (result, variables) => {
      onSuccess?.(result, variables);
      if (successMessage !== undefined)
        toast.success(typeof successMessage === 'function' ? successMessage(result, variables) : successMessage);
      const keys = typeof invalidate === 'function' ? invalidate(result, variables) : invalidate;
      await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: (error) => {
      if (errorMessage === undefined || isReportedByClient(error)) return;
      const messages = typeof errorMessage === 'function' ? errorMessage(error) : errorMessage;
      for (const message of typeof messages === 'string' ? [messages] : (messages ?? [])) toast.error(message);
    },
  });
}

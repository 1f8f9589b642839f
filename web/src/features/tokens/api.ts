import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  TOKEN_MESSAGES,
  type GeneratedToken as GeneratedTokenEntity,
  type TokenCreate,
  type TokenGrant as TokenGrantEntity,
  type TokenUpdate,
} from '@cfs/contracts/tokens';
import { apiSend, isReportedByClient } from '../../lib/api-client';
import type { JsonOf } from '../../lib/json-types';
import { listItemQueryOptions, listQueryKey } from '../../lib/list-api';
import { guidLiteral, isGuid } from '../../lib/list-query';
import { useToast } from '../../lib/toast';

/** API tokens of a tenant (spec 001 §7 Tokens). */
export const TOKENS_PATH = '/v1/tokens';

export type TokenGrant = JsonOf<TokenGrantEntity>;
export type GeneratedToken = JsonOf<GeneratedTokenEntity>;

/** One grant, read through the list (there is no single-grant call); cached under the list's key so saves refresh it. */
export function useTokenGrant(id: string | null) {
  const valid = id !== null && isGuid(id);
  return useQuery({
    ...listItemQueryOptions<TokenGrant>(TOKENS_PATH, valid ? `tokenGrantId eq ${guidLiteral(id)}` : 'false'),
    enabled: valid,
  });
}

function useTokenMutation<TVariables, TResult>(send: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listQueryKey(TOKENS_PATH) }),
    onError: (error) => {
      if (!isReportedByClient(error)) toast.error(TOKEN_MESSAGES.saveFailed);
    },
  });
}

/** `PUT v1/tokens`: the answer carries `generatedToken`, the only time the token is seen. */
export function useCreateToken() {
  return useTokenMutation((input: TokenCreate) => apiSend<GeneratedToken>('PUT', TOKENS_PATH, input));
}

/** `POST v1/tokens/{tokenGrantId}`: name and description only. */
export function useUpdateToken(tokenGrantId: string) {
  return useTokenMutation((input: TokenUpdate) => apiSend<TokenGrant>('POST', `${TOKENS_PATH}/${tokenGrantId}`, input));
}

/** `PUT v1/tokens/{id}/revoke`. */
export function useRevokeToken() {
  return useTokenMutation((tokenGrantId: string) => apiSend<TokenGrant>('PUT', `${TOKENS_PATH}/${tokenGrantId}/revoke`));
}

import { useQuery } from '@tanstack/react-query';
import {
  TOKEN_MESSAGES,
  type GeneratedToken as GeneratedTokenEntity,
  type TokenCreate,
  type TokenGrant as TokenGrantEntity,
  type TokenUpdate,
} from '@cfs/contracts/tokens';
import { apiSend } from '../../lib/api-client';
import { pathId } from '../../lib/ids';
import { guidLiteral, isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { listItemQueryOptions, listQueryKey } from '../../lib/list-api';
import { useApiMutation } from '../../lib/mutations';

/** API tokens of a tenant (spec 001 §7 Tokens). */
export const TOKENS_PATH = '/v1/tokens';

export type TokenGrant = JsonOf<TokenGrantEntity>;
export type GeneratedToken = JsonOf<GeneratedTokenEntity>;

/**
 * One grant, read through the list (there is no single-grant call); cached under the list's key
 * so saves refresh it. An id that is no GUID finds nothing, without a request.
 */
export function useTokenGrant(id: string | null) {
  const valid = isGuid(id);
  const query = useQuery({
    ...listItemQueryOptions<TokenGrant>(TOKENS_PATH, valid ? `tokenGrantId eq ${guidLiteral(id)}` : 'false'),
    enabled: valid,
  });
  return { ...query, notFound: (id !== null && id !== 'new' && !valid) || (query.isSuccess && query.data === null) };
}

const invalidate = [listQueryKey(TOKENS_PATH)];

/**
 * `PUT v1/tokens`: the answer carries `generatedToken`, the only time the token is seen. Not kept
 * in the mutation cache (`gcTime: 0`); the form resets the mutation once the page holds it.
 */
export function useCreateToken() {
  return useApiMutation({
    mutationFn: (input: TokenCreate) => apiSend<GeneratedToken>('PUT', TOKENS_PATH, input),
    invalidate,
    successMessage: TOKEN_MESSAGES.created,
    errorMessage: TOKEN_MESSAGES.saveFailed,
    gcTime: 0,
  });
}

/** `POST v1/tokens/{tokenGrantId}`: name and description only. */
export function useUpdateToken(tokenGrantId: string) {
  return useApiMutation({
    mutationFn: (input: TokenUpdate) => apiSend<TokenGrant>('POST', `${TOKENS_PATH}/${pathId(tokenGrantId)}`, input),
    invalidate,
    successMessage: TOKEN_MESSAGES.saved,
    errorMessage: TOKEN_MESSAGES.saveFailed,
  });
}

/** `PUT v1/tokens/{id}/revoke`. */
export function useRevokeToken() {
  return useApiMutation({
    mutationFn: (tokenGrantId: string) => apiSend<TokenGrant>('PUT', `${TOKENS_PATH}/${pathId(tokenGrantId)}/revoke`),
    invalidate,
    errorMessage: TOKEN_MESSAGES.saveFailed,
  });
}

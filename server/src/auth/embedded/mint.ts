import { randomUUID } from 'node:crypto';
import { importJWK, SignJWT } from 'jose';
import type { Config } from '../../config.js';
import type { ProviderKeys } from './keys.js';

/**
 * Signs an access token for a user exactly as the embedded provider issues them (same key,
 * issuer, audience, `at+jwt` type, the user name as subject). Used by `npm run token` and the
 * tests; it is not reachable over HTTP. It needs no database, so it works while the server runs
 * on its embedded one; the API still refuses a token for an unknown or disabled user. A negative
 * `ttlSeconds` gives a token that has already expired; `grantId` ties it to a sign-in grant (`gid`),
 * as the provider's tokens are, so that it ends with that sign-in.
 */
export async function mintAccessToken(config: Config, keys: ProviderKeys, userName: string, ttlSeconds = 3600, grantId?: string): Promise<string> {
  if (!config.oidc.embedded) throw new Error('Tokens can be minted only for the embedded identity provider');
  const key = await importJWK(keys.signing, 'RS256');
  return new SignJWT({ client_id: config.oidc.clientId, scope: 'openid profile email api', ...(grantId ? { gid: grantId } : {}) })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: keys.signing.kid })
    .setIssuer(config.oidc.authority)
    .setAudience(config.oidc.audience)
    .setSubject(userName)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key);
}

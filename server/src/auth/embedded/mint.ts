import { randomUUID } from 'node:crypto';
import { importJWK, SignJWT } from 'jose';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { ProviderKeys } from './keys.js';

/**
 * Signs an access token for a user exactly as the embedded provider issues them (same key,
 * issuer, audience, `at+jwt` type). Used by `npm run token` and the tests; it is not reachable
 * over HTTP.
 */
export async function mintAccessToken(db: Db, config: Config, keys: ProviderKeys, userName: string, ttlSeconds = 3600): Promise<string> {
  if (!config.oidc.embedded) throw new Error('Tokens can be minted only for the embedded identity provider');
  const user = await db
    .selectFrom('app_user')
    .select(['user_id', 'tenant_id'])
    .where('user_name', '=', userName)
    .where('enabled', '=', true)
    .executeTakeFirst();
  if (!user) throw new Error(`No enabled user named "${userName}"`);
  const key = await importJWK(keys.signing, 'RS256');
  return new SignJWT({ client_id: config.oidc.clientId, scope: 'openid profile email api', tenant_id: user.tenant_id, preferred_username: userName })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: keys.signing.kid })
    .setIssuer(config.oidc.authority)
    .setAudience(config.oidc.audience)
    .setSubject(user.user_id)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key);
}

import { randomUUID } from 'node:crypto';
import { importJWK, SignJWT } from 'jose';
import type Provider from 'oidc-provider';
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { loadSecretBox } from '../../crypto/secret-box.js';
import { loadOrCreateKeys, type ProviderKeys } from './keys.js';
import { createEmbeddedProvider } from './provider.js';

/** What minting needs: the provider's signing key, and the provider itself to record the sign-in. */
export interface TokenMinter {
  config: Config;
  keys: ProviderKeys;
  provider: Provider;
}

/**
 * Signs an access token for a user exactly as the embedded provider issues them (same key,
 * issuer, audience, `at+jwt` type, the user name as subject), after recording a sign-in grant
 * for that user in the database that lives as long as the token: the API accepts a token only
 * while the grant its `gid` names is alive and belongs to its subject, so a minted token ends as a
 * signed-out one does. Used by `npm run token`, the tests and the benchmarks; it is not reachable
 * over HTTP. A negative `ttlSeconds` gives a token that has already expired.
 */
export async function mintAccessToken(minter: TokenMinter, userName: string, ttlSeconds = 3600): Promise<string> {
  const { config, keys, provider } = minter;
  if (!config.oidc.embedded) throw new Error('Tokens can be minted only for the embedded identity provider');
  const grant = new provider.Grant({ clientId: config.oidc.clientId, accountId: userName });
  grant.addOIDCScope('openid profile email');
  grant.addResourceScope(config.oidc.audience, 'api');
  // The grant's lifetime is the token's (a second at least: an already expired token needs none).
  grant.exp = Math.floor(Date.now() / 1000) + Math.max(ttlSeconds, 1);
  const grantId = await grant.save();
  const key = await importJWK(keys.signing, 'RS256');
  return new SignJWT({ client_id: config.oidc.clientId, scope: 'openid profile email api', gid: grantId })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: keys.signing.kid })
    .setIssuer(config.oidc.authority)
    .setAudience(config.oidc.audience)
    .setSubject(userName)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key);
}

/**
 * A minter for a process that is not the portal (`npm run token`, a test or benchmark driving a
 * portal process): the portal's keys under DATA_DIR and its database (DATABASE_URL, or the
 * embedded server, shared with a portal that is running on it). Close it when done.
 */
export async function openTokenMinter(config: Config): Promise<TokenMinter & { close(): Promise<void> }> {
  if (!config.oidc.embedded) throw new Error('Tokens can be minted only for the embedded identity provider');
  const keys = await loadOrCreateKeys(config.dataDir);
  const box = await loadSecretBox(config.dataDir, config.secrets);
  const { db, close } = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 2,
    statementTimeoutMs: config.statementTimeoutMs,
  });
  return { config, keys, provider: createEmbeddedProvider(db, config, keys, box), close };
}

import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { Config } from '../config.js';

export interface TokenVerifier {
  /** The token's claims, or a rejection when it is not a valid access token for this API. */
  verify(token: string): Promise<JWTPayload>;
  /** Reads an external provider's discovery document and key set address now (the embedded one has nothing to read); rejects with why it cannot. */
  reach(): Promise<void>;
}

/**
 * Access tokens are JWTs checked against the identity provider's key set, issuer and audience.
 * The embedded provider hands its public keys over in-process; an external provider's keys
 * come from its discovery document.
 */
export function createTokenVerifier(config: Config, embeddedKeys?: JSONWebKeySet): TokenVerifier {
  const { authority, audience } = config.oidc;
  if (config.oidc.embedded) {
    if (!embeddedKeys) throw new Error('The embedded identity provider needs its key set');
    const keys = createLocalJWKSet(embeddedKeys);
    return {
      async verify(token) {
        const { payload } = await jwtVerify(token, keys, { issuer: authority, audience, typ: 'at+jwt' });
        return payload;
      },
      reach: () => Promise.resolve(),
    };
  }
  let remote: ReturnType<typeof createRemoteJWKSet> | undefined;
  let issuer: string = authority;
  async function keySet() {
    if (!remote) {
      const response = await fetch(`${authority}/.well-known/openid-configuration`, {
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`Identity provider discovery failed with ${response.status}`);
      const discovery = (await response.json()) as { jwks_uri?: unknown; issuer?: unknown };
      if (typeof discovery.jwks_uri !== 'string') throw new Error('The identity provider publishes no jwks_uri');
      if (typeof discovery.issuer === 'string') issuer = discovery.issuer;
      remote = createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: 10_000 });
    }
    return remote;
  }
  return {
    async verify(token) {
      const { payload } = await jwtVerify(token, await keySet(), { issuer, audience });
      return payload;
    },
    async reach() {
      await keySet();
    },
  };
}

import { describe, expect, it } from 'vitest';
import { RENEWAL_LOCK, renewInTurn, type RenewalLocks } from './renewal-lock';

/** The Web Locks API's exclusive lock: callbacks under one name run one after another. */
function fakeLocks(): RenewalLocks & { names: string[] } {
  let tail: Promise<unknown> = Promise.resolve();
  const names: string[] = [];
  return {
    names,
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      names.push(name);
      const run = tail.then(callback);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

interface StoredSignIn {
  refreshToken: string;
  expiresIn: number;
}

/** One stored sign-in shared by the tabs (local storage) and a provider that rotates refresh tokens. */
function world() {
  let stored: StoredSignIn = { refreshToken: 'rt-0', expiresIn: 30 };
  let issued = 0;
  const presented: string[] = [];
  const tab = (locks: RenewalLocks | undefined) =>
    renewInTurn(locks, {
      renewedElsewhere: () => Promise.resolve(stored.expiresIn > 60 ? stored : null),
      renew: async () => {
        const { refreshToken } = stored;
        presented.push(refreshToken);
        // The token endpoint's round trip, during which another tab may start its own renewal.
        await new Promise((resolve) => setTimeout(resolve, 5));
        stored = { refreshToken: `rt-${String((issued += 1))}`, expiresIn: 900 };
        return stored;
      },
    });
  return { tab, presented, stored: () => stored };
}

describe('silent renewal across tabs', () => {
  it('takes turns under one lock: two tabs renewing at once present the refresh token once, and both end on the same sign-in', async () => {
    const locks = fakeLocks();
    const { tab, presented, stored } = world();
    const [first, second] = await Promise.all([tab(locks), tab(locks)]);
    expect(presented).toEqual(['rt-0']);
    expect(first).toEqual(stored());
    expect(second).toEqual(stored());
    expect(locks.names).toEqual([RENEWAL_LOCK, RENEWAL_LOCK]);
  });

  it('renews again once the renewed token is itself due, with the newer refresh token', async () => {
    const locks = fakeLocks();
    const { tab, presented, stored } = world();
    await tab(locks);
    stored().expiresIn = 30;
    await Promise.all([tab(locks), tab(locks)]);
    expect(presented).toEqual(['rt-0', 'rt-1']);
  });
});

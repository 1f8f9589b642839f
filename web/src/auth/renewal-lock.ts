import { UserManager, type SigninSilentArgs, type User } from 'oidc-client-ts';

/** The Web Lock under which every tab of the portal renews the one stored sign-in. */
export const RENEWAL_LOCK = 'cfs-token-renewal';

/** What is used of the Web Locks API (`navigator.locks`). */
export interface RenewalLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface RenewalSteps<T> {
  /** The stored sign-in when another tab has renewed it since this one decided to, else null. */
  renewedElsewhere(): Promise<T | null>;
  /** This tab's renewal: spends the stored refresh token and stores the new one. */
  renew(): Promise<T | null>;
}

/**
 * Renews the sign-in, one tab at a time. The provider rotates refresh tokens and takes a spent one
 * presented again for a stolen copy, ending the sign-in; the tabs share one stored sign-in and
 * each renews on its own timer, so two renewing at once would present the same refresh token. In
 * turn, a tab that waited finds the sign-in already renewed and takes it instead. Without the Web
 * Locks API (a page not served over HTTPS or from localhost) the tab renews unguarded.
 */
export async function renewInTurn<T>(locks: RenewalLocks | undefined, steps: RenewalSteps<T>): Promise<T | null> {
  const inTurn = async () => (await steps.renewedElsewhere()) ?? (await steps.renew());
  return locks ? locks.request(RENEWAL_LOCK, inTurn) : inTurn();
}

/** The page's Web Locks, when it has them. */
function pageLocks(): RenewalLocks | undefined {
  return typeof navigator !== 'undefined' && 'locks' in navigator ? navigator.locks : undefined;
}

/** The UserManager of the portal: its silent renewals (the automatic ones included) take turns across tabs. */
export class TabSharedUserManager extends UserManager {
  override signinSilent(args?: SigninSilentArgs): Promise<User | null> {
    return renewInTurn(pageLocks(), {
      renewedElsewhere: async () => {
        const stored = await this.getUser();
        // A renewal is due once the token has less than the expiring notice left; more means
        // another tab renewed it: take it (and raise userLoaded, which restarts this tab's timers).
        const fresh =
          stored &&
          !stored.expired &&
          (stored.expires_in ?? 0) > this.settings.accessTokenExpiringNotificationTimeInSeconds;
        return fresh ? this.getUser(true) : null;
      },
      renew: () => super.signinSilent(args),
    });
  }
}

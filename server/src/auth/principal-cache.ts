import type { JWTPayload } from 'jose';
import type { Principal } from './principal.js';
import type { MachineCaller } from './machine-callers.js';
import { keepBounded } from '../bounded-map.js';
import { DatabaseListener } from '../db/listener.js';

/** The channel on which the database announces changes to who may do what (migration 0005). */
export const PRINCIPAL_CHANNEL = 'principal_changed';

interface Entry {
  claims: JWTPayload;
  principal: Principal;
  /** The sign-in grant the token belongs to (embedded provider), gone at sign-out or revocation. */
  grantId: string | undefined;
  expiresAt: number;
}

interface MachineEntry {
  caller: MachineCaller;
  expiresAt: number;
}

export interface PrincipalCacheOptions {
  /** How long a caller's permissions and tenants are reused without asking the database. */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * The verified token and the principal built from it, per bearer token, for a short time: a
 * signed-in request then costs no signature check and no query. So too a machine's credential (a
 * tenant API token or a device's), by its SHA-256: an agent's report then costs no lookup of who
 * it speaks for. Whatever changes a user, a role, a tenant, a sign-in grant, a tenant token or a
 * device's standing is announced by the database (NOTIFY, sent at commit by triggers: migrations
 * 0005 and 0037) to every instance, which drops the affected entries at once; while this instance
 * cannot hear those announcements, it does not use the cache at all.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly machines = new Map<string, MachineEntry>();
  /** Counts the announcements applied: a caller read before one arrived may already be out of date. */
  private announcements = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** True while the invalidation listener is connected; the cache is bypassed otherwise. */
  private listening = false;
  private listener: DatabaseListener | undefined;
  /** Whether `listen` made the listener, and `close` ends it. */
  private ownListener = false;
  private pings = 0;
  private readonly waiting = new Map<string, () => void>();

  constructor(options: PrincipalCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  get(token: string): Entry | undefined {
    return this.live(this.entries, token);
  }

  /**
   * Keeps a verified token's principal, unless an announcement arrived since `mark` was taken: the
   * principal was read before it, and may be what it changed.
   */
  set(token: string, claims: JWTPayload, principal: Principal, grantId: string | undefined, mark: number): void {
    const validUntil = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
    this.keep(this.entries, token, (expiresAt) => ({ claims, principal, grantId, expiresAt }), validUntil, mark);
  }

  /** The machine caller a credential (by its SHA-256) spoke for, while cached. */
  getMachine(credentialHash: string): MachineCaller | undefined {
    return this.live(this.machines, credentialHash)?.caller;
  }

  /** A mark to take before reading a caller from the database, for `set` and `setMachine`. */
  mark(): number {
    return this.announcements;
  }

  /**
   * Keeps an accepted machine caller, no longer than its token is valid (`validUntil`, ms since the
   * epoch), unless an announcement arrived since `mark` was taken: the caller was read before it,
   * and may be what it ended.
   */
  setMachine(credentialHash: string, caller: MachineCaller, validUntil: number | undefined, mark: number): void {
    this.keep(this.machines, credentialHash, (expiresAt) => ({ caller, expiresAt }), validUntil, mark);
  }

  /** Applies one announcement: `user:<id>`, `grant:<id>`, `token:<id>`, `device:<id>`, or `all`. */
  invalidate(payload: string): void {
    if (payload.startsWith('ping:')) {
      this.waiting.get(payload)?.();
      this.waiting.delete(payload);
      return;
    }
    this.announcements += 1;
    if (payload === 'all') {
      this.clear();
      return;
    }
    const [kind, id] = payload.split(':', 2) as [string, string | undefined];
    for (const [token, entry] of this.entries) {
      if ((kind === 'user' && entry.principal.userId === id) || (kind === 'grant' && entry.grantId === id))
        this.entries.delete(token);
    }
    for (const [hash, { caller }] of this.machines) {
      // A token's end is also the end of every device enrolled with it.
      if (
        (kind === 'token' && caller.tokenGrantId === id) ||
        (kind === 'device' && 'deviceId' in caller && caller.deviceId === id)
      )
        this.machines.delete(hash);
    }
  }

  /**
   * Keeps an entry in `map` for the time to live, no longer than `validUntil` (ms since the epoch),
   * while this instance listens and no announcement has arrived since `mark` was taken.
   */
  private keep<E>(
    map: Map<string, E>,
    key: string,
    entry: (expiresAt: number) => E,
    validUntil: number | undefined,
    mark: number,
  ): void {
    if (!this.listening || mark !== this.announcements) return;
    const expiresAt = Math.min(this.now() + this.ttlMs, validUntil ?? Number.POSITIVE_INFINITY);
    keepBounded(map, key, entry(expiresAt), this.maxEntries);
  }

  /** An entry of `map` while this instance listens and the entry has not expired (an expired one is dropped). */
  private live<E extends { expiresAt: number }>(map: Map<string, E>, key: string): E | undefined {
    if (!this.listening) return undefined;
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      map.delete(key);
      return undefined;
    }
    return entry;
  }

  private clear(): void {
    this.announcements += 1;
    this.entries.clear();
    this.machines.clear();
  }

  /** Hears the announcements through the instance's listener (call before it listens); the cache works only while it is connected. */
  attach(listener: DatabaseListener): void {
    this.listener = listener;
    listener.on(PRINCIPAL_CHANNEL, (payload) => this.invalidate(payload || 'all'));
    listener.onConnection((connected) => {
      this.clear();
      this.listening = connected;
    });
  }

  /** Listens for announcements on a connection of its own (a cache without the instance's listener). */
  async listen(url: string, log?: (message: string, error?: unknown) => void): Promise<void> {
    const listener = new DatabaseListener();
    this.attach(listener);
    this.ownListener = true;
    await listener.listen(url, log);
  }

  /**
   * Resolves once every announcement committed before the call has been applied here:
   * notifications on one channel arrive in commit order, so a ping sent now arrives after them.
   */
  async sync(): Promise<void> {
    const listener = this.listener;
    if (!listener || !this.listening) return;
    const payload = `ping:${process.pid}:${++this.pings}`;
    const arrived = new Promise<void>((resolve) => this.waiting.set(payload, resolve));
    if (!(await listener.notify(PRINCIPAL_CHANNEL, payload))) {
      this.waiting.delete(payload);
      return;
    }
    await arrived;
  }

  async close(): Promise<void> {
    this.listening = false;
    this.clear();
    if (this.ownListener) await this.listener?.close();
  }
}

import { sql } from 'kysely';
import type { Db } from './database.js';

/** How long after a write its writer's reads wait for the replica to have it (then it surely has, or is broken). */
export const READ_AFTER_WRITE_SECONDS = 60;
/** How long a replica's replay position, or its failure to answer, is believed before it is asked again. */
const POSITION_TTL_MS = 1000;

/** A write-ahead log position (`16/B374D848`) as a number, to compare; undefined when it is not one. */
export function parseLsn(text: string | undefined | null): bigint | undefined {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text ?? '');
  return match ? (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`) : undefined;
}

/**
 * Where reads go when a streaming replica is configured (DATABASE_READ_URL): lists, exports,
 * reports and dashboards to the replica, everything else — and the reads of a caller who has just
 * written — to the primary.
 *
 * Read-your-own-writes: after a write the caller is handed the primary's log position (a cookie
 * for the browser, the `X-Read-After` header for API clients, who may send it back); a read that
 * brings one goes to the replica only once the replica has replayed that far, else to the primary.
 * Other callers may see the replica's lag (usually well under a second) — never an answer older
 * than their own last change. A replica that does not answer is left alone for a second, its
 * reads going to the primary meanwhile.
 */
export class ReadRouting {
  private replayed: { lsn: bigint | undefined; at: number } | undefined;
  private asking: Promise<bigint | undefined> | undefined;

  constructor(
    private readonly primary: Db,
    private readonly replica: Db | undefined,
  ) {}

  get hasReplica(): boolean {
    return this.replica !== undefined;
  }

  /**
   * Runs the read `work` for a caller whose last write reached `after` (undefined: none lately) on
   * the replica when it has that write, else on the primary; a replica that cannot be reached
   * mid-read is left alone for a while and the read runs again on the primary.
   */
  async read<T>(after: bigint | undefined, work: (db: Db, onReplica: boolean) => Promise<T>): Promise<T> {
    const replica = this.replica;
    if (!replica || !(await this.replicaHas(after))) return work(this.primary, false);
    try {
      return await work(replica, true);
    } catch (error) {
      if (!isConnectionFailure(error)) throw error;
      this.replayed = { lsn: undefined, at: Date.now() };
      return work(this.primary, false);
    }
  }

  private async replicaHas(after: bigint | undefined): Promise<boolean> {
    const cached = this.replayed && Date.now() - this.replayed.at < POSITION_TTL_MS ? this.replayed : undefined;
    let lsn = cached ? cached.lsn : await this.replayPosition();
    // Behind the caller's write as last seen: it may have caught up since, so ask it now.
    if (cached && lsn !== undefined && after !== undefined && lsn < after) lsn = await this.replayPosition();
    return lsn !== undefined && (after === undefined || lsn >= after);
  }

  /** The primary's current log position: what a read after this moment's commits must wait for. */
  async writePosition(): Promise<string> {
    const { rows } = await sql<{ lsn: string }>`SELECT pg_current_wal_lsn()::text AS lsn`.execute(this.primary);
    return rows[0]?.lsn ?? '0/0';
  }

  /** The replica's replay position, asked once however many requests wait for it; undefined when it does not answer. */
  private replayPosition(): Promise<bigint | undefined> {
    const replica = this.replica;
    if (!replica) return Promise.resolve(undefined);
    this.asking ??= sql<{ lsn: string | null }>`SELECT pg_last_wal_replay_lsn()::text AS lsn`
      .execute(replica)
      .then(
        ({ rows }) => parseLsn(rows[0]?.lsn),
        () => undefined,
      )
      .then((lsn) => {
        this.replayed = { lsn, at: Date.now() };
        this.asking = undefined;
        return lsn;
      });
    return this.asking;
  }
}

/** The server went away or cannot be reached (as opposed to a query that failed on it). */
function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? String(error.code) : '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03'].includes(code) ||
    code.startsWith('08') ||
    /Connection terminated/i.test(error.message)
  );
}

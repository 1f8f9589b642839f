import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** The channel on which every write to a tracked table is announced at commit (migration 0011). */
export const CHANGES_CHANNEL = 'table_changed';

/** The tracked tables with an enabled trigger, and their sequences' current values. */
const COUNTERS_SQL = `
  SELECT c.relname AS "table", coalesce(s.last_value, 0)::text AS "value"
  FROM pg_trigger t
  JOIN pg_class c ON c.oid = t.tgrelid AND c.relnamespace = current_schema()::regnamespace
  JOIN pg_sequences s ON s.schemaname = current_schema() AND s.sequencename = 'change_counter_' || c.relname
  WHERE t.tgname = 'announce_change' AND t.tgenabled <> 'D'`;

/** The ids of the transactions running in this database. */
const RUNNING_SQL = `
  SELECT l.transactionid::text AS xid
  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted AND a.datname = current_database()`;

/**
 * The tables' change counters as this instance last heard them, kept in memory so that a list
 * poll is answered 304 without a query (http/list-etag.ts). Every instance hears the same
 * announcements in the same (commit) order, so all of them hold the same values.
 *
 * A counter is trusted only while the listener is connected and the values read at connection
 * have settled: a sequence moves when a writer takes its value, before that writer commits, so the
 * values read at start-up may count writes not yet visible; they are trusted once every
 * transaction that was running when they were read has ended (its announcement, if any, arrived
 * by then). Until then, and whenever the listener is lost, `current` answers nothing and lists
 * run their queries.
 */
export class ChangeCounters {
  private values = new Map<string, string>();
  private settled = false;
  private listener: pg.Client | undefined;
  private closed = false;
  private pings = 0;
  private readonly instance = randomUUID();
  private readonly waiting = new Map<string, () => void>();
  private readonly readyWaiters: (() => void)[] = [];

  /** Whether counters can be trusted now (listening, and the start-up values have settled). */
  get ready(): boolean {
    return this.settled;
  }

  /** Resolves once the counters can be trusted (at once when they can). */
  async whenReady(): Promise<void> {
    if (!this.settled) await new Promise<void>((resolve) => this.readyWaiters.push(resolve));
  }

  /** The counters of `tables` in order, or undefined when one is unknown (not tracked) or the counters are not trusted now. */
  current(tables: readonly string[]): string[] | undefined {
    if (!this.settled) return undefined;
    const values: string[] = [];
    for (const table of tables) {
      const value = this.values.get(table);
      if (value === undefined) return undefined;
      values.push(value);
    }
    return values;
  }

  /** Applies one announcement: `table:value`, or one of this instance's pings. */
  private heard(payload: string): void {
    if (payload.startsWith('ping:')) {
      this.waiting.get(payload)?.();
      this.waiting.delete(payload);
      return;
    }
    // A table tracked after start-up is known from its first announcement on.
    const split = payload.lastIndexOf(':');
    if (split > 0) this.values.set(payload.slice(0, split), payload.slice(split + 1));
  }

  /**
   * Listens on its own connection, reconnecting with backoff; counters are trusted only while
   * connected. Resolves once listening: the counters settle in the background, so a long
   * transaction elsewhere delays 304 answers, never the start.
   */
  async listen(url: string, log: (message: string, error?: unknown) => void = () => undefined): Promise<void> {
    let delay = 250;
    const connect = async (): Promise<void> => {
      if (this.closed) return;
      const client = new pg.Client({ connectionString: url, application_name: 'cfs-change-listener' });
      client.on('notification', (message) => this.heard(message.payload ?? ''));
      client.on('error', (error) => log('The change counters lost their listener; lists run their queries until it reconnects', error));
      client.on('end', () => {
        this.settled = false;
        this.values = new Map();
        if (this.listener === client) this.listener = undefined;
        if (!this.closed) setTimeout(() => void connect().catch(() => undefined), delay).unref();
        delay = Math.min(delay * 2, 10_000);
      });
      await client.connect();
      this.listener = client;
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      delay = 250;
      void this.load(client).catch((error: unknown) => {
        log('The change counters could not be read; lists run their queries until the listener reconnects', error);
        void client.end();
      });
    };
    await connect();
  }

  /** Reads the counters, then waits for every transaction running at that time to end before trusting them. */
  private async load(client: pg.Client): Promise<void> {
    const loaded = await client.query<{ table: string; value: string }>(COUNTERS_SQL);
    // Announcements heard from now on are newer than the values read: they win.
    const heard = this.values;
    this.values = new Map(loaded.rows.map((row) => [row.table, row.value]));
    for (const [table, value] of heard) this.values.set(table, value);
    // Every transaction of this database running now (each holds the lock on its own id): those
    // that moved a counter before the read are among them. Other databases' work is not waited for.
    const running = await client.query<{ xid: string }>(RUNNING_SQL);
    const xids = running.rows.map((row) => row.xid);
    let pause = 10;
    while (xids.length > 0) {
      const { rows } = await client.query<{ running: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND transactionid = ANY($1::xid[])) AS running`, [xids]);
      if (!rows[0]?.running) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 1000);
    }
    if (this.listener !== client || this.closed) return;
    this.settled = true;
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  /**
   * Resolves once every announcement committed before the call has been applied here:
   * notifications arrive in commit order, so a ping sent now arrives after them.
   */
  async sync(): Promise<void> {
    const client = this.listener;
    if (!client || !this.settled) return;
    const payload = `ping:${this.instance}:${++this.pings}`;
    const arrived = new Promise<void>((resolve) => this.waiting.set(payload, resolve));
    await client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]);
    await arrived;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.settled = false;
    this.values = new Map();
    await this.listener?.end().catch(() => undefined);
  }
}

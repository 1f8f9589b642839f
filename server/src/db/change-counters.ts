import pg from 'pg';

/** The groups a tenant's changes are counted in, by table (migration 0051). */
export const TENANT_COUNTER_GROUPS = 64;
/** Between a table's name and a group in the names `onPublished` gives: `packet_latest#07`. */
const GROUP_MARK = '#';

/**
 * A tenant's group among a table's tenant counters (migration 0051 computes the same in SQL): its
 * id's first two hex digits, shifted right by two, as two digits.
 */
export function tenantCounterGroup(tenantId: string): string {
  return (Number.parseInt(tenantId.slice(0, 2), 16) >> 2).toString().padStart(2, '0');
}

/** The counter name of a table's tenant group (`tenantCounterGroup`, or `all` for rows of no tenant). */
export const tenantCounterName = (table: string, group: string) => `${table}${GROUP_MARK}${group}`;

/**
 * The tracked tables with an enabled trigger, and their sequences' current values (migration 0011).
 * Each sequence is read by name, not through the pg_sequences view: the view reads every sequence
 * of the database and checks its privileges, and at five readings a second that was four fifths of
 * an idle portal's database time. A table whose sequence is gone is left out (its lists then run
 * their queries), as the view's join left it out. `by_tenant`: the table is counted by tenant group
 * too (migration 0051), its groups read by GROUPS_SQL.
 */
const COUNTERS_SQL = `
  SELECT c.relname AS "table", coalesce(pg_sequence_last_value(s.sequence), 0)::text AS "value",
    EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = 'count_by_tenant_insert' AND g.tgenabled <> 'D') AS by_tenant
  FROM pg_trigger t
  JOIN pg_class c ON c.oid = t.tgrelid AND c.relnamespace = current_schema()::regnamespace
  CROSS JOIN LATERAL (SELECT to_regclass(format('%I.%I', current_schema(), 'change_counter_' || c.relname)) AS sequence) s
  WHERE t.tgname = 'count_change' AND t.tgenabled <> 'D' AND s.sequence IS NOT NULL`;

/**
 * The tenant groups' sequences of the tables $1, under the names `{table}#{group}`. Read only for
 * a table whose own counter moved or waits to be published: a statement moves its groups' counters
 * just before the table's (its triggers fire in the order of their names), so a group that moved
 * is read in the reading that sees its table move, or a later one.
 */
const GROUPS_SQL = `
  SELECT t.name || '${GROUP_MARK}' || g.tenant_group AS "table",
    coalesce(pg_sequence_last_value(s.sequence), 0)::text AS "value"
  FROM unnest($1::text[]) AS t (name)
  CROSS JOIN (SELECT lpad(n::text, 2, '0') FROM generate_series(0, ${TENANT_COUNTER_GROUPS - 1}) AS n UNION ALL SELECT 'all') AS g (tenant_group)
  CROSS JOIN LATERAL (SELECT to_regclass(format('%I.%I', current_schema(), 'tenant_counter_' || t.name || '_' || g.tenant_group)) AS sequence) s
  WHERE s.sequence IS NOT NULL`;

/** The ids of the transactions running in this database (each holds the lock on its own id); other databases' are not waited for. */
const RUNNING_SQL = `
  SELECT l.transactionid::text AS xid
  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted AND a.datname = current_database()`;

const STILL_RUNNING_SQL = `SELECT transactionid::text AS xid FROM pg_locks WHERE locktype = 'transactionid' AND transactionid = ANY($1::xid[])`;

/** Counter values read, waiting for the transactions that were running when they were read. */
interface Pending {
  values: Map<string, string>;
  xids: Set<string>;
}

export interface ChangeCountersOptions {
  /** How often the counters are read; a change made anywhere is seen within about this time. */
  intervalMs?: number;
}

/**
 * The tables' change counters, kept in memory so that a list poll is answered 304 without a
 * query (http/list-etag.ts). Each instance reads the counters' sequences a few times a second on
 * a connection of its own; all instances read the same values, so the tags one makes, another
 * recognises.
 *
 * A sequence moves when a writer takes its value, before that writer commits. So a counter seen
 * to move is taken out at once (lists that read the table are answered by their query, untagged)
 * and its new value is trusted only once every transaction of this database that was running when
 * it was read has ended: by then the write it counts is visible (or rolled back). A tag is thus
 * never older than a change it claims to include, and a race costs an extra 200, never a stale 304.
 * Until the first reading has settled, and while the connection is lost, `current` answers nothing.
 */
export class ChangeCounters {
  private published = new Map<string, string>();
  /** The tables whose changes are counted by tenant group too, as the last reading found them. */
  private byTenant: ReadonlySet<string> = new Set();
  /** The tenant groups' counters as the last reading had them. */
  private groupsRead = new Map<string, string>();
  private pending: Pending[] = [];
  /** Values read and set aside until their pending reading settles, by table. */
  private awaiting = new Map<string, string>();
  /** The first reading after connecting: the counters are trusted once it has settled. */
  private initial: Pending | undefined;
  private trusted = false;
  private client: pg.Client | undefined;
  private closed = false;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private readonly readyWaiters: (() => void)[] = [];
  private readonly changeHandlers = new Set<(tables: ReadonlySet<string>) => void>();
  private readonly intervalMs: number;

  constructor(options: ChangeCountersOptions = {}) {
    this.intervalMs = options.intervalMs ?? 200;
  }

  /** Whether counters can be trusted now (connected, and the first reading has settled). */
  get ready(): boolean {
    return this.trusted;
  }

  /** Resolves once the counters can be trusted (at once when they can). */
  async whenReady(): Promise<void> {
    if (!this.trusted) await new Promise<void>((resolve) => this.readyWaiters.push(resolve));
  }

  /**
   * Calls `handler` with the tables whose new counter value is published (their lists answer with
   * the change from then on), once per reading that publishes any; answers the unsubscribe.
   */
  onPublished(handler: (tables: ReadonlySet<string>) => void): () => void {
    this.changeHandlers.add(handler);
    return () => this.changeHandlers.delete(handler);
  }

  /**
   * Whether a write to `table` also moves the counter of each tenant group it wrote
   * (`tenantCounterName`), so that a change can be told to the tenants it concerns only.
   */
  countsByTenant(table: string): boolean {
    return this.byTenant.has(table);
  }

  /** The counters of `tables` in order, or undefined when one is unknown (not tracked, or moving) or the counters are not trusted now. */
  current(tables: readonly string[]): string[] | undefined {
    if (!this.trusted) return undefined;
    const values: string[] = [];
    for (const table of tables) {
      const value = this.published.get(table);
      if (value === undefined) return undefined;
      values.push(value);
    }
    return values;
  }

  /**
   * Reads the counters every `intervalMs` on a connection of its own, reconnecting with backoff.
   * Resolves once connected: the first reading settles in the background, so a long transaction
   * elsewhere delays 304 answers, never the start.
   */
  async watch(url: string, log: (message: string, error?: unknown) => void = () => undefined): Promise<void> {
    let delay = 250;
    const lost = (client: pg.Client) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.forget();
      if (!this.closed) setTimeout(() => void connect().catch(() => undefined), delay).unref();
      delay = Math.min(delay * 2, 10_000);
    };
    const connect = async (): Promise<void> => {
      if (this.closed) return;
      const client = new pg.Client({ connectionString: url, application_name: 'cfs-change-counters' });
      client.on('error', (error) =>
        log('The change counters lost their connection; lists run their queries until it is back', error),
      );
      client.on('end', () => lost(client));
      try {
        await client.connect();
      } catch (error) {
        this.client = client;
        lost(client);
        throw error;
      }
      this.client = client;
      delay = 250;
      const tick = () => {
        if (this.client !== client) return;
        this.refresh()
          .catch((error: unknown) => {
            if (this.client !== client) return;
            log('The change counters could not be read; lists run their queries until they can', error);
            void client.end();
          })
          .finally(() => {
            if (this.client === client) setTimeout(tick, this.intervalMs).unref();
          });
      };
      tick();
    };
    await connect();
  }

  /**
   * Resolves once a reading that started after the call is done: a change committed before the
   * call is then either counted or holds its table's lists to their queries (so that a caller's
   * own write shows on their next request).
   */
  async sync(): Promise<void> {
    if (!this.trusted) return;
    await this.refresh().catch(() => undefined);
  }

  /** One reading, started after the call: a new one, or the one queued behind the reading under way. */
  private refresh(): Promise<void> {
    if (!this.running) {
      this.running = this.read().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.refresh();
      });
    return this.queued;
  }

  private async read(): Promise<void> {
    const client = this.client;
    if (!client) throw new Error('The change counters are not connected');
    const { rows } = await client.query<{ table: string; value: string; by_tenant: boolean }>(COUNTERS_SQL);
    const read = new Map(rows.map((row) => [row.table, row.value]));
    this.byTenant = new Set(rows.filter((row) => row.by_tenant).map((row) => row.table));
    // The groups of a table that moved, or waits to be published, are read again; the others stand as they were.
    const regroup: string[] = [];
    for (const table of this.byTenant) {
      if (this.awaiting.has(table) || this.published.get(table) !== read.get(table)) regroup.push(table);
      else
        for (const [name, value] of this.groupsRead)
          if (name.startsWith(tenantCounterName(table, ''))) read.set(name, value);
    }
    if (regroup.length > 0) {
      const groups = await client.query<{ table: string; value: string }>(GROUPS_SQL, [regroup]);
      for (const row of groups.rows) read.set(row.table, row.value);
    }
    this.groupsRead = new Map([...read].filter(([name]) => name.includes(GROUP_MARK)));
    // Moved (or no longer counted): out at once, until the writers counted have ended.
    const moved = new Map<string, string>();
    for (const [table, value] of read)
      if ((this.published.get(table) ?? this.awaiting.get(table)) !== value) moved.set(table, value);
    for (const table of [...this.published.keys(), ...this.awaiting.keys()]) {
      if (read.has(table)) continue;
      this.published.delete(table);
      this.awaiting.delete(table);
    }
    for (const [table, value] of moved) {
      this.published.delete(table);
      this.awaiting.set(table, value);
    }
    if (moved.size > 0 || (!this.trusted && !this.initial)) {
      const running = await client.query<{ xid: string }>(RUNNING_SQL);
      const pending = { values: moved, xids: new Set(running.rows.map((row) => row.xid)) };
      this.pending.push(pending);
      if (!this.trusted) this.initial ??= pending;
    }
    const waitingOn = [...new Set(this.pending.flatMap((pending) => [...pending.xids]))];
    const still =
      waitingOn.length === 0
        ? new Set<string>()
        : new Set((await client.query<{ xid: string }>(STILL_RUNNING_SQL, [waitingOn])).rows.map((row) => row.xid));
    if (this.client !== client) return;
    const waiting: Pending[] = [];
    const changed = new Set<string>();
    for (const pending of this.pending) {
      if ([...pending.xids].some((xid) => still.has(xid))) {
        waiting.push(pending);
        continue;
      }
      // Published unless the counter has moved again since (a later reading waits for that).
      for (const [table, value] of pending.values) {
        if (read.get(table) !== value) continue;
        this.published.set(table, value);
        this.awaiting.delete(table);
        if (this.trusted) changed.add(table);
      }
    }
    this.pending = waiting;
    if (changed.size > 0) for (const handler of this.changeHandlers) handler(changed);
    if (!this.trusted && this.initial && !waiting.includes(this.initial)) {
      this.trusted = true;
      for (const resolve of this.readyWaiters.splice(0)) resolve();
    }
  }

  private forget(): void {
    this.trusted = false;
    this.byTenant = new Set();
    this.groupsRead = new Map();
    this.published = new Map();
    this.pending = [];
    this.awaiting = new Map();
    this.initial = undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    this.forget();
    await client?.end().catch(() => undefined);
  }
}

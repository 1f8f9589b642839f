import pg from 'pg';

type Log = (message: string, error?: unknown) => void;

/**
 * An instance's one LISTEN connection to the database, for every channel its parts follow
 * (`on`), reconnecting with backoff when it is lost. Its users are told when it connects and
 * when it is lost (`onConnection`): while it is down a notification may be missed, and what relies
 * on hearing them must not (the principal cache is bypassed, an agent's wait answers at once).
 */
export class DatabaseListener {
  private readonly handlers = new Map<string, ((payload: string) => void)[]>();
  private readonly connectionHandlers: ((connected: boolean) => void)[] = [];
  private client: pg.Client | undefined;
  private closed = false;
  /** True while connected and listening on every channel. */
  connected = false;

  /** Follows `channel`: `handler` gets each notification's payload. */
  on(channel: string, handler: (payload: string) => void): void {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
    const known = this.handlers.get(channel);
    this.handlers.set(channel, [...(known ?? []), handler]);
    if (!known && this.client) void this.client.query(`LISTEN ${channel}`).catch(() => undefined);
  }

  /** `handler(true)` once listening (at once when it is), `handler(false)` when the connection is lost or closed. */
  onConnection(handler: (connected: boolean) => void): void {
    this.connectionHandlers.push(handler);
    if (this.connected) handler(true);
  }

  private setConnected(connected: boolean): void {
    this.connected = connected;
    for (const handler of this.connectionHandlers) handler(connected);
  }

  /** Connects and listens, and reconnects whenever the connection ends until `close`. */
  async listen(url: string, log: Log = () => undefined): Promise<void> {
    let delay = 250;
    const connect = async (): Promise<void> => {
      if (this.closed) return;
      const client = new pg.Client({ connectionString: url });
      client.on('notification', ({ channel, payload }) => {
        for (const handler of this.handlers.get(channel) ?? []) handler(payload ?? '');
      });
      client.on('error', (error) => log('The database listener lost its connection; reconnecting', error));
      client.on('end', () => {
        this.client = undefined;
        this.setConnected(false);
        if (!this.closed) setTimeout(() => void connect().catch(() => undefined), delay).unref();
        delay = Math.min(delay * 2, 10_000);
      });
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
      this.client = client;
      this.setConnected(true);
      delay = 250;
    };
    await connect();
  }

  /** Sends a notification on the listening connection (nothing while it is down). */
  async notify(channel: string, payload: string): Promise<boolean> {
    const client = this.client;
    if (!client || !this.connected) return false;
    await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.setConnected(false);
    await client?.end().catch(() => undefined);
  }
}

import fs from 'node:fs';
import path from 'node:path';
import type { AgentScriptRun } from '@cfs/contracts/agent';

/**
 * What the agent has to tell the portal, kept on disk until the portal has taken it: packets,
 * device logs, operation logs, completions and script runs. Items are appended as JSON lines; a flush sends
 * the oldest (at most `batchMax`) and removes them only after the portal answered 2xx, so that
 * nothing is lost while the portal is down or the agent restarts. One agent process owns the
 * file; its calls are serialised here.
 */
export type OutboxItem =
  | { kind: 'packet'; packet: { entityId: string; timestamp: string; message: Record<string, unknown> } }
  | { kind: 'deviceLog'; entry: { created: string; entryType: string; detail: string } }
  | { kind: 'operationLog'; deviceOperationId: string; entry: { created: string; entryType: string; detail: string } }
  | { kind: 'complete'; deviceOperationId: string; completionToken: string }
  | { kind: 'scriptRun'; deviceOperationId: string; run: AgentScriptRunText };

/** A script run as the outbox keeps it (JSON: its start as ISO text). */
export type AgentScriptRunText = Omit<AgentScriptRun, 'started'> & { started: string };

/** Where an item is sent: items of one destination travel in one call. */
export function destinationOf(item: OutboxItem): string {
  switch (item.kind) {
    case 'packet':
    case 'deviceLog':
      return item.kind;
    case 'operationLog':
      return `operationLog:${item.deviceOperationId}`;
    case 'complete':
      return `complete:${item.deviceOperationId}:${item.completionToken}`;
    case 'scriptRun':
      // One run a call: each is a record of its own.
      return `scriptRun:${item.deviceOperationId}:${item.run.started}`;
  }
}

/** What the sender made of a batch: all taken, a retry later (portal down), or refused for good. */
export type SendOutcome = 'sent' | 'retry' | 'drop';

export interface OutboxSender {
  (items: OutboxItem[]): Promise<SendOutcome>;
}

/** How large the outbox may grow while the portal is away (50 MB: days of heartbeats and results). */
export const OUTBOX_MAX_BYTES = 50 * 1024 * 1024;

export class Outbox {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly batchMax = 100,
    private readonly maxBytes = OUTBOX_MAX_BYTES,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
  }

  private serial<T>(work: () => Promise<T> | T): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  append(...items: OutboxItem[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    return this.serial(async () => {
      await fs.promises.appendFile(this.file, items.map((item) => `${JSON.stringify(item)}\n`).join(''), {
        mode: 0o600,
      });
      if ((await fs.promises.stat(this.file)).size > this.maxBytes) await this.trim();
    });
  }

  /**
   * Past its cap, the outbox gives up its oldest items until it holds three quarters of the cap:
   * a portal away for weeks must not fill the machine's disk, and the newest readings say most.
   */
  private async trim(): Promise<void> {
    const lines = (await this.read()).map((item) => `${JSON.stringify(item)}\n`);
    let bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0);
    let first = 0;
    while (first < lines.length && bytes > this.maxBytes * 0.75) bytes -= Buffer.byteLength(lines[first++]!);
    const temporary = `${this.file}.tmp`;
    await fs.promises.writeFile(temporary, lines.slice(first).join(''), { mode: 0o600 });
    await fs.promises.rename(temporary, this.file);
  }

  /** Items waiting, oldest first. A line torn by a crash mid-write is skipped. */
  private async read(): Promise<OutboxItem[]> {
    const text = await fs.promises.readFile(this.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const items: OutboxItem[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        items.push(JSON.parse(line) as OutboxItem);
      } catch {
        // A partial last line from a crash: nothing of it reached the portal, and it cannot be read back.
      }
    }
    return items;
  }

  size(): Promise<number> {
    return this.serial(async () => (await this.read()).length);
  }

  /**
   * Sends batches until the outbox is empty or the sender asks to retry. Returns whether it is
   * empty. The file is rewritten (to a temporary file, then renamed) only after a batch was taken.
   */
  flush(send: OutboxSender): Promise<boolean> {
    return this.serial(async () => {
      for (;;) {
        const items = await this.read();
        if (items.length === 0) return true;
        // A batch goes to one place (packets, device logs, one operation's logs…) and is taken or
        // not as a whole, so a retry never sends twice what the portal already has.
        const key = destinationOf(items[0]!);
        let end = 1;
        while (end < items.length && end < this.batchMax && destinationOf(items[end]!) === key) end += 1;
        const batch = items.slice(0, end);
        const outcome = await send(batch);
        if (outcome === 'retry') return false;
        const rest = items.slice(batch.length);
        const temporary = `${this.file}.tmp`;
        await fs.promises.writeFile(temporary, rest.map((item) => `${JSON.stringify(item)}\n`).join(''), {
          mode: 0o600,
        });
        await fs.promises.rename(temporary, this.file);
      }
    });
  }
}

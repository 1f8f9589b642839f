import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';
import { Outbox, type OutboxItem } from './outbox.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-outbox-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const packet = (n: number): OutboxItem => ({
  kind: 'packet',
  packet: { entityId: 'e', timestamp: new Date(n).toISOString(), message: { Value: n } },
});
const log = (n: number): OutboxItem => ({
  kind: 'deviceLog',
  entry: { created: new Date(n).toISOString(), entryType: 'Info', detail: `line ${n}` },
});

describe('Outbox', () => {
  it('sends in batches of at most 100 and removes only what the portal took', async () => {
    const outbox = new Outbox(path.join(dir, 'outbox.jsonl'));
    await outbox.append(...Array.from({ length: 250 }, (_, n) => packet(n)));
    const sizes: number[] = [];
    expect(await outbox.flush(async (items) => (sizes.push(items.length), 'sent'))).toBe(true);
    expect(sizes).toEqual([100, 100, 50]);
    expect(await outbox.size()).toBe(0);
  });

  it('keeps everything, in order, while the portal is down, and across a restart of the agent', async () => {
    const file = path.join(dir, 'outbox.jsonl');
    const outbox = new Outbox(file);
    await outbox.append(packet(1), packet(2));
    expect(await outbox.flush(async () => 'retry')).toBe(false);
    await outbox.append(packet(3));

    const restarted = new Outbox(file);
    const seen: number[] = [];
    await restarted.flush(async (items) => {
      for (const item of items) if (item.kind === 'packet') seen.push(item.packet.message.Value as number);
      return 'sent';
    });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('stops at the first batch the portal could not take, keeping it and what follows', async () => {
    const outbox = new Outbox(path.join(dir, 'outbox.jsonl'));
    await outbox.append(packet(1), log(2), packet(3));
    let calls = 0;
    expect(await outbox.flush(async () => (++calls === 2 ? 'retry' : 'sent'))).toBe(false);
    const rest: OutboxItem[][] = [];
    await outbox.flush(async (items) => (rest.push(items), 'sent'));
    expect(rest.map((batch) => batch.map((item) => item.kind))).toEqual([['deviceLog'], ['packet']]);
  });

  it('sends each batch to one destination, and drops a batch the portal refused for good', async () => {
    const outbox = new Outbox(path.join(dir, 'outbox.jsonl'));
    const opLog = (id: string): OutboxItem => ({
      kind: 'operationLog',
      deviceOperationId: id,
      entry: { created: '', entryType: 'Info', detail: id },
    });
    await outbox.append(opLog('a'), opLog('a'), opLog('b'), packet(1));
    const batches: string[][] = [];
    await outbox.flush(async (items) => {
      batches.push(items.map((item) => (item.kind === 'operationLog' ? item.deviceOperationId : item.kind)));
      return items[0]!.kind === 'operationLog' && items[0]!.deviceOperationId === 'b' ? 'drop' : 'sent';
    });
    expect(batches).toEqual([['a', 'a'], ['b'], ['packet']]);
    expect(await outbox.size()).toBe(0);
  });

  it('skips a line torn by a crash mid-write and keeps the outbox readable by its owner only', async () => {
    const file = path.join(dir, 'outbox.jsonl');
    const outbox = new Outbox(file);
    await outbox.append(packet(1));
    fs.appendFileSync(file, '{"kind":"packet","pack');
    expect(await outbox.size()).toBe(1);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('backoffDelay', () => {
  it('doubles with each failure, between half and all of its ceiling, up to the cap', () => {
    expect(backoffDelay(0)).toBe(0);
    expect(backoffDelay(1, { baseMs: 1000, random: () => 0 })).toBe(500);
    expect(backoffDelay(1, { baseMs: 1000, random: () => 1 })).toBe(1000);
    expect(backoffDelay(4, { baseMs: 1000, random: () => 1 })).toBe(8000);
    expect(backoffDelay(40, { baseMs: 1000, maxMs: 60_000, random: () => 1 })).toBe(60_000);
  });

  it('past its cap gives up its oldest items and keeps the newest, in order', async () => {
    const file = path.join(dir, 'outbox.jsonl');
    const oneLine = Buffer.byteLength(`${JSON.stringify(packet(0))}\n`);
    const outbox = new Outbox(file, 100, oneLine * 100);
    for (let n = 0; n < 150; n += 1) await outbox.append(packet(n));
    expect(fs.statSync(file).size).toBeLessThanOrEqual(oneLine * 100);
    const sent: number[] = [];
    await outbox.flush(async (items) => {
      for (const item of items) if (item.kind === 'packet') sent.push(Number(item.packet.message.Value));
      return 'sent';
    });
    expect(sent.at(-1)).toBe(149);
    expect(sent[0]).toBeGreaterThan(49);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
  });
});

import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CHANGE_INTERVAL_MS, type LiveEvents } from '@cfs/contracts/live';
import { tenantCounterGroup } from '../src/db/change-counters.js';
import { DEMO } from '../src/db/demo-ids.js';
import { createDevice, createTenantAs, createTokenAs } from './factories.js';
import { createTestPortal, openSecondInstance, type SecondInstance, type TestPortal } from './harness.js';

/**
 * The live stream (GET /v1/live) over real HTTP: a tab follows its screens' topics and hears of a
 * change as it happens, from whichever instance wrote it, and only of the topics it may read.
 */
let portal: TestPortal;
let second: SecondInstance;
let contosoToken: string;
let fabrikamToken: string;
const urlOf = (app: { server: { address(): unknown } }) =>
  `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

beforeAll(async () => {
  portal = await createTestPortal();
  await portal.app.listen({ port: 0, host: '127.0.0.1' });
  second = await openSecondInstance(portal);
  await second.app.listen({ port: 0, host: '127.0.0.1' });
  // A stream tells the changes the counters publish once their first reading has settled: a packet
  // sent before that is part of that reading, and no stream would hear of it.
  await Promise.all([portal.runtime.changes.whenReady(), second.runtime.changes.whenReady()]);
  contosoToken = (await createTokenAs(portal, 'admin', DEMO.contoso)).generatedToken;
  fabrikamToken = (await createTokenAs(portal, 'admin', DEMO.fabrikam)).generatedToken;
});
afterAll(async () => {
  // Streams and keep-alive connections of the real HTTP calls end here, so the close waits for none.
  second?.app.server.closeAllConnections();
  portal?.app.server.closeAllConnections();
  await second?.close();
  await portal?.close();
});

type Received = { [K in keyof LiveEvents]: { name: K; data: LiveEvents[K]; at: number } }[keyof LiveEvents];

/** Opens a stream as `user` and collects its events as they come; `close` ends it. */
async function follow(base: string, user: string, query: string) {
  const controller = new AbortController();
  const response = await fetch(`${base}/v1/live?${query}`, {
    headers: { authorization: `Bearer ${await portal.token(user)}` },
    signal: controller.signal,
  });
  const events: Received[] = [];
  let ended = false;
  const reading = (async () => {
    if (!response.ok || !response.body) {
      await response.text();
      return;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let split: number;
        while ((split = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const name = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (name && data) events.push({ name, data: JSON.parse(data), at: Date.now() } as Received);
        }
      }
    } catch {
      // Aborted by close().
    }
    ended = true;
  })();
  const until = async (check: () => boolean, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`no such event; got ${JSON.stringify(events)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return {
    response,
    events,
    ended: () => ended,
    until,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}

async function postPacket(base: string, entityId: string, token = contosoToken) {
  const response = await fetch(`${base}/v1/packets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ entityId, timestamp: new Date().toISOString(), message: { Value: 42 } }),
  });
  expect(response.status).toBe(200);
  // Read to its end: an answer left unread holds its connection, and the instance's close waits for it.
  await response.text();
}

describe('GET /v1/live', () => {
  it('tells a tab following the blocks that a packet came, through whichever instance it came', async () => {
    const stream = await follow(urlOf(second.app), 'operator', 'topics=blocks,workUnits');
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await stream.until(() => stream.events.some((event) => event.name === 'ready'));
      expect(stream.events[0]).toMatchObject({ name: 'ready', data: { topics: ['blocks', 'workUnits'] } });

      const sent = Date.now();
      await postPacket(urlOf(portal.app), randomUUID());
      await stream.until(
        () => stream.events.some((event) => event.name === 'change' && event.data.topics.includes('blocks')),
        3_000,
      );
      const change = stream.events.find((event) => event.name === 'change')!;
      // A packet is the blocks' change, not the work units'.
      expect(change.data.topics).toEqual(['blocks']);
      expect(change.at - sent).toBeLessThan(1_500);
      // The open stream holds up none of the tenant's reads (one runs at a time per tenant).
      const read = await second.app.inject({
        method: 'GET',
        url: '/v1/packets?$top=1',
        headers: { authorization: `Bearer ${await portal.token('operator')}` },
      });
      expect(read.statusCode).toBe(200);
    } finally {
      await stream.close();
    }
  });

  it('tells a tab of its own tenants’ packets only: another tenant’s agents are not its change; a tab of every tenant hears both', async () => {
    // The two demo tenants fall in different tenant groups (migration 0051).
    expect(tenantCounterGroup(DEMO.contoso)).not.toBe(tenantCounterGroup(DEMO.fabrikam));
    // The earlier tests' packets are published on both instances before the streams open.
    await Promise.all([portal.runtime.changes.sync(), second.runtime.changes.sync()]);
    await Promise.all([portal.runtime.changes.sync(), second.runtime.changes.sync()]);
    const operator = await follow(urlOf(portal.app), 'operator', 'topics=blocks');
    const admin = await follow(urlOf(second.app), 'admin', 'topics=blocks');
    try {
      await operator.until(() => operator.events.some((event) => event.name === 'ready'));
      await admin.until(() => admin.events.some((event) => event.name === 'ready'));
      const changesOf = (stream: typeof operator) => stream.events.filter((event) => event.name === 'change').length;

      await postPacket(urlOf(portal.app), randomUUID(), fabrikamToken);
      await admin.until(() => changesOf(admin) === 1, 3_000);
      // Two more readings of the counters (200 ms each) than the administrator's tab needed.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(changesOf(operator)).toBe(0);

      await postPacket(urlOf(second.app), randomUUID(), contosoToken);
      await operator.until(() => changesOf(operator) === 1, 3_000);
      await admin.until(() => changesOf(admin) === 2, 3_000);
      expect(operator.events.find((event) => event.name === 'change')?.data).toEqual({ topics: ['blocks'] });
    } finally {
      await operator.close();
      await admin.close();
    }
  });

  it('counts a write (a colour, a device’s last contact) in the tenant group that tenantCounterGroup names; work units are not counted by tenant', async () => {
    const counter = async (name: string) =>
      Number(
        (
          await sql<{ value: string | null }>`SELECT pg_sequence_last_value(${name}::regclass)::text AS value`.execute(
            portal.db,
          )
        ).rows[0]!.value ?? 0,
      );
    for (let tenant = 0; tenant < 6; tenant++) {
      const { tenantId } = await createTenantAs(portal, 'admin');
      const name = `tenant_counter_entity_color_${tenantCounterGroup(tenantId)}`;
      const before = await counter(name);
      await sql`INSERT INTO entity_color (entity_id, tenant_id, color) VALUES (${randomUUID()}, ${tenantId}, 'FF0000')`.execute(
        portal.db,
      );
      expect(await counter(name), tenantId).toBe(before + 1);
    }
    // A device's last contact, written on each of its agent's configuration calls, is counted in its tenant's group.
    const device = await createDevice(portal, DEMO.fabrikam, DEMO.fabrikamProduction);
    const deviceGroup = `tenant_counter_device_${tenantCounterGroup(DEMO.fabrikam)}`;
    const deviceBefore = await counter(deviceGroup);
    await sql`UPDATE device SET last_contact = now() WHERE device_id = ${device.deviceId}`.execute(portal.db);
    expect(await counter(deviceGroup)).toBe(deviceBefore + 1);
    const before = await counter('tenant_counter_work_unit_all').catch(() => undefined);
    // Only the tables machines write all the time are counted by tenant: work units are not.
    expect(before).toBeUndefined();
  });

  it('keeps telling a tab of packets while they keep coming, once a second: a table written in every reading of the counters is no silence, nor a flood', async () => {
    const stream = await follow(urlOf(portal.app), 'operator', 'topics=blocks');
    try {
      await stream.until(() => stream.events.some((event) => event.name === 'ready'));
      const entityId = randomUUID();
      const started = Date.now();
      // A packet every 50 ms for 3 s: more often than the counters are read.
      const sending = (async () => {
        while (Date.now() - started < 3_000) {
          await postPacket(urlOf(portal.app), entityId);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      await sending;
      const changes = stream.events.filter((event) => event.name === 'change' && event.at <= started + 3_000);
      // Heard within the first 1.5 s, and again before the packets stopped ...
      expect(changes.some((event) => event.at - started < 1_500)).toBe(true);
      expect(changes.some((event) => event.at - started >= 1_500)).toBe(true);
      // ... but once a second at the most, not at every reading of the counters (five a second).
      const gaps = changes.slice(1).map((event, index) => event.at - changes[index]!.at);
      expect(changes.length).toBeLessThanOrEqual(4);
      expect(Math.min(...gaps)).toBeGreaterThan(LIVE_CHANGE_INTERVAL_MS - 100);
    } finally {
      await stream.close();
    }
  });

  it('refuses a topic without its area’s view permission, and an unknown topic, naming it', async () => {
    const refused = await portal.as('enduser', { method: 'GET', url: '/v1/live?topics=blocks&maxSeconds=0' });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('blocks');
    const unknown = await portal.as('operator', { method: 'GET', url: '/v1/live?topics=blocks,nothing&maxSeconds=0' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('topics');
    // maxSeconds is digits (not empty, not hexadecimal); any other parameter is named.
    for (const query of ['maxSeconds=', 'maxSeconds=0x10', 'maxSeconds=-1', 'maxSeconds=1e3', 'maxSeconds=999999']) {
      const refused = await portal.as('operator', { method: 'GET', url: `/v1/live?topics=blocks&${query}` });
      expect(refused.statusCode, query).toBe(400);
      expect(Object.keys(refused.json<{ errors: Record<string, string[]> }>().errors), query).toEqual(['maxSeconds']);
    }
    const extra = await portal.as('operator', { method: 'GET', url: '/v1/live?topics=blocks&maxSeconds=0&x=1' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json<{ errors: Record<string, string[]> }>().errors).toEqual({ x: ['Unknown field "x".'] });
  });

  it('with maxSeconds=0 answers the opening event and ends', async () => {
    const stream = await follow(urlOf(portal.app), 'operator', 'topics=devices&maxSeconds=0');
    await stream.until(() => stream.ended());
    expect(stream.events).toEqual([{ name: 'ready', data: { topics: ['devices'] }, at: expect.any(Number) }]);
  });
});

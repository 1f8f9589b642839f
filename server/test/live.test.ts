import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvents } from '@cfs/contracts/live';
import { DEMO } from '../src/db/demo-ids.js';
import { createTokenAs } from './factories.js';
import { createTestPortal, openSecondInstance, type SecondInstance, type TestPortal } from './harness.js';

/**
 * The live stream (GET /v1/live) over real HTTP: a tab follows its screens' topics and hears of a
 * change as it happens, from whichever instance wrote it, and only of the topics it may read.
 */
let portal: TestPortal;
let second: SecondInstance;
let contosoToken: string;
const urlOf = (app: { server: { address(): unknown } }) =>
  `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

beforeAll(async () => {
  portal = await createTestPortal();
  await portal.app.listen({ port: 0, host: '127.0.0.1' });
  second = await openSecondInstance(portal);
  await second.app.listen({ port: 0, host: '127.0.0.1' });
  contosoToken = (await createTokenAs(portal, 'admin', DEMO.contoso)).generatedToken;
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

async function postPacket(base: string, entityId: string) {
  const response = await fetch(`${base}/v1/packets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${contosoToken}`, 'content-type': 'application/json' },
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

  it('refuses a topic without its area’s view permission, and an unknown topic, naming it', async () => {
    const refused = await portal.as('enduser', { method: 'GET', url: '/v1/live?topics=blocks&maxSeconds=0' });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('blocks');
    const unknown = await portal.as('operator', { method: 'GET', url: '/v1/live?topics=blocks,nothing&maxSeconds=0' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('topics');
  });

  it('with maxSeconds=0 answers the opening event and ends', async () => {
    const stream = await follow(urlOf(portal.app), 'operator', 'topics=devices&maxSeconds=0');
    await stream.until(() => stream.ended());
    expect(stream.events).toEqual([{ name: 'ready', data: { topics: ['devices'] }, at: expect.any(Number) }]);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionSet } from '@cfs/contracts/permissions';
import type { Principal } from '../src/auth/principal.js';
import { registerTenantShares } from '../src/http/tenant-shares.js';

const reader: Principal = {
  userId: 'reader',
  userName: 'reader',
  displayName: 'Reader',
  email: null,
  permissions: new PermissionSet([]),
  permissionStrings: [],
  tenantScope: { kind: 'some', tenantIds: ['tenant-a'] },
  groups: [],
  tenantId: 'tenant-a',
  subscriptionId: null,
};

/** A promise and the function that settles it. */
function signal(): { done: Promise<void>; settle: () => void } {
  let settle: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (settle = resolve));
  return { done, settle };
}

interface SharedApp {
  app: FastifyInstance;
  port: number;
  /** Settles when the stand-in gate has the request numbered `n` (from 1) in hand. */
  gateHas: (n: number) => Promise<void>;
  /** Settles when the server has seen the request numbered `n` close. */
  closed: (n: number) => Promise<void>;
  /** Holds the gate (its requests wait) until `openGate`. */
  holdGate: () => void;
  openGate: () => void;
  /** Answers the /held reads, those still to come at once. */
  release: () => void;
}

/**
 * One read at a time per tenant, as the portal runs by default, behind a stand-in for the auth gate
 * that names the caller (the real one checks a new token and reads the user first): the test
 * decides when it lets requests through.
 */
async function sharedApp(): Promise<SharedApp> {
  const app = Fastify();
  const arrivals: ReturnType<typeof signal>[] = [];
  const closes: ReturnType<typeof signal>[] = [];
  const nth = (list: ReturnType<typeof signal>[], n: number) => (list[n - 1] ??= signal());
  let gate = signal();
  gate.settle();
  let count = 0;
  const held: (() => void)[] = [];
  let released = false;
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request, reply) => {
    count += 1;
    const n = count;
    reply.raw.once('close', () => nth(closes, n).settle());
    nth(arrivals, n).settle();
    await gate.done;
    request.principal = reader;
  });
  registerTenantShares(app, 1);
  app.get('/read', async () => ({ ok: true }));
  app.get(
    '/held',
    () => new Promise((resolve) => (released ? resolve({ ok: true }) : held.push(() => resolve({ ok: true })))),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    port: (app.server.address() as AddressInfo).port,
    gateHas: (n) => nth(arrivals, n).done,
    closed: (n) => nth(closes, n).done,
    holdGate: () => (gate = signal()),
    openGate: () => gate.settle(),
    release: () => {
      released = true;
      held.splice(0).forEach((answer) => answer());
    },
  };
}

/** Sends a GET that the test can leave before any answer. */
function leavable(port: number, path: string): { leave: () => void } {
  const request = http.get({ host: '127.0.0.1', port, path });
  request.on('error', () => undefined);
  return { leave: () => request.destroy() };
}

const read = (port: number, path = '/read') =>
  fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5_000) });

describe("a tenant's share of reads", () => {
  let shared: SharedApp | undefined;
  afterEach(async () => {
    shared?.release();
    await shared?.app.close();
    shared = undefined;
  });

  it('is not taken by a caller that left while the auth gate was still naming it', async () => {
    shared = await sharedApp();
    shared.holdGate();
    const gone = leavable(shared.port, '/read');
    await shared.gateHas(1);
    gone.leave();
    await shared.closed(1);
    shared.openGate();
    // Before the fix the share stayed taken by the first, and this one waited for ever.
    expect((await read(shared.port)).status).toBe(200);
  });

  it('is handed on when a waiting caller leaves, and the next waiting one is served', async () => {
    shared = await sharedApp();
    const held = read(shared.port, '/held');
    await shared.gateHas(1);
    // Waits behind the held read (the gate names it at once), then leaves.
    const waiting = leavable(shared.port, '/read');
    await shared.gateHas(2);
    waiting.leave();
    await shared.closed(2);
    const next = read(shared.port);
    await shared.gateHas(3);
    shared.release();
    expect((await held).status).toBe(200);
    expect((await next).status).toBe(200);
  });
});

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

/**
 * One read at a time per tenant, as the portal runs by default, behind a stand-in for the auth gate
 * that takes `gateMs` to name the caller (a first call of a new token checks it and reads the user).
 */
async function sharedApp(gateMs: number): Promise<{ app: FastifyInstance; port: number; release: () => void }> {
  const held: (() => void)[] = [];
  const app = Fastify();
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request) => {
    await new Promise((resolve) => setTimeout(resolve, gateMs));
    request.principal = reader;
  });
  registerTenantShares(app, 1);
  app.get('/read', async () => ({ ok: true }));
  // Answers once released: a read that holds the tenant's share.
  app.get('/held', () => new Promise((resolve) => held.push(() => resolve({ ok: true }))));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port, release: () => held.splice(0).forEach((answer) => answer()) };
}

/** Sends a GET and leaves after `leaveMs`, before any answer. */
async function leaveEarly(port: number, leaveMs: number): Promise<void> {
  const request = http.get({ host: '127.0.0.1', port, path: '/read' });
  request.on('error', () => undefined);
  await new Promise((resolve) => setTimeout(resolve, leaveMs));
  request.destroy();
}

describe("a tenant's share of reads", () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('is handed on when a caller leaves while the auth gate is still naming it', async () => {
    const started = await sharedApp(150);
    app = started.app;
    // Gone before the gate named it: its response closed before the share was taken.
    await leaveEarly(started.port, 30);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const answer = await fetch(`http://127.0.0.1:${started.port}/read`, { signal: AbortSignal.timeout(3_000) });
    expect(answer.status).toBe(200);
  });

  it('is handed on when a waiting caller leaves, and the next waiting one is served', async () => {
    const started = await sharedApp(0);
    app = started.app;
    const held = fetch(`http://127.0.0.1:${started.port}/held`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Waits behind the held read, then leaves.
    await leaveEarly(started.port, 50);
    const next = fetch(`http://127.0.0.1:${started.port}/read`, { signal: AbortSignal.timeout(3_000) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    started.release();
    expect((await held).status).toBe(200);
    expect((await next).status).toBe(200);
  });
});

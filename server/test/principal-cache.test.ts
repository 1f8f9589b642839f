import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO } from '../src/db/demo-ids.js';
import { createUserIn, unique } from './factories.js';
import { createTestPortal, openSecondInstance, type SecondInstance, type TestPortal } from './harness.js';

/*
 * Two instances of the portal on one database, as behind a load balancer: instance A and
 * instance B each cache callers; a change made anywhere reaches B's cache at once.
 */
let portal: TestPortal;
let b: SecondInstance;

beforeAll(async () => {
  portal = await createTestPortal();
  // Same database and signing keys (DATA_DIR/keys), its own process state: pool, caches, listeners.
  b = await openSecondInstance(portal);
});
afterAll(async () => {
  await b?.close();
  await portal?.close();
});

/** Waits until instance B has applied every change committed so far (its listener's round trip). */
const settled = () => b.runtime.principals.sync();

describe('the principal cache', () => {
  test('answers a known token without asking the database again', async () => {
    const userName = `cached-${unique()}`;
    const displayName = `Cached person ${unique()}`;
    await createUserIn(portal, userName, [], DEMO.fabrikam, { displayName });
    const first = await b.as(userName, { method: 'GET', url: '/v1/currentUser' });
    expect(first.json()).toMatchObject({ userName, name: displayName });
    // A change the database does not announce (its trigger is off) is not seen: the cache answered.
    await sql`ALTER TABLE app_user DISABLE TRIGGER app_user_principal`.execute(portal.db);
    await sql`UPDATE app_user SET display_name = ${`${displayName} renamed quietly`} WHERE user_name = ${userName}`.execute(
      portal.db,
    );
    await sql`ALTER TABLE app_user ENABLE TRIGGER app_user_principal`.execute(portal.db);
    await settled();
    expect((await b.as(userName, { method: 'GET', url: '/v1/currentUser' })).json()).toMatchObject({
      name: displayName,
    });
    // An announced change is seen on the next request.
    await sql`UPDATE app_user SET display_name = ${`${displayName} renamed`} WHERE user_name = ${userName}`.execute(
      portal.db,
    );
    await settled();
    expect((await b.as(userName, { method: 'GET', url: '/v1/currentUser' })).json()).toMatchObject({
      name: `${displayName} renamed`,
    });
  });

  test('refuses a user disabled on another instance on the next request', async () => {
    expect((await b.as('operator', { method: 'GET', url: '/v1/permissions' })).statusCode).toBe(200);
    await sql`UPDATE app_user SET enabled = false WHERE user_name = 'operator'`.execute(portal.db);
    await settled();
    expect((await b.as('operator', { method: 'GET', url: '/v1/permissions' })).statusCode).toBe(401);
    await sql`UPDATE app_user SET enabled = true WHERE user_name = 'operator'`.execute(portal.db);
    await settled();
    expect((await b.as('operator', { method: 'GET', url: '/v1/permissions' })).statusCode).toBe(200);
  });

  test('takes a removed role away on the next request', async () => {
    expect((await b.as('admin', { method: 'GET', url: '/v1/tenants' })).statusCode).toBe(200);
    await sql`DELETE FROM user_role WHERE user_id = (SELECT user_id FROM app_user WHERE user_name = 'admin')`.execute(
      portal.db,
    );
    await settled();
    expect((await b.as('admin', { method: 'GET', url: '/v1/tenants' })).statusCode).toBe(403);
  });

  test('sees a caller’s own write on this instance on their very next request', async () => {
    const before = (await portal.as('operator2', { method: 'GET', url: '/v1/currentUser' })).json<{
      subscriptionId: string;
    }>();
    const lab = DEMO.fabrikamLab;
    expect(before.subscriptionId).not.toBe(lab);
    const saved = await portal.as('operator2', {
      method: 'POST',
      url: `/v1/tenantSubscriptionContext/${DEMO.fabrikam}`,
      payload: { tenant: DEMO.fabrikam, subscriptionId: lab },
    });
    expect(saved.statusCode).toBe(200);
    expect((await portal.as('operator2', { method: 'GET', url: '/v1/currentUser' })).json()).toMatchObject({
      subscriptionId: lab,
    });
  });
});

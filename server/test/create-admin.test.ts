import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdministrator, generatePassword } from '../src/auth/embedded/administrator.js';
import { verifyPassword } from '../src/auth/passwords.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

const account = () =>
  portal.db
    .selectFrom('app_user')
    .select(['password_hash', 'enabled', 'all_tenants'])
    .where('user_name', '=', 'first.admin')
    .executeTakeFirstOrThrow();

describe('the first administrator (npm run admin)', () => {
  it('creates a local administrator over every tenant, who can administer the portal', async () => {
    const password = generatePassword();
    expect(password).toMatch(/^[\w-]{20}$/);
    expect(await createAdministrator(portal.db, 'first.admin', password)).toEqual({ created: true });
    const row = await account();
    expect(row.all_tenants).toBe(true);
    expect(await verifyPassword(password, row.password_hash ?? '')).toBe(true);
    const tenants = await portal.as('first.admin', { method: 'GET', url: '/v1/tenants?$count=true' });
    expect(tenants.statusCode).toBe(200);
    expect(tenants.json<{ '@odata.count': number }>()['@odata.count']).toBeGreaterThanOrEqual(2);
  });

  it('gives an existing account a new password and enables it again', async () => {
    await portal.db.updateTable('app_user').set({ enabled: false }).where('user_name', '=', 'first.admin').execute();
    expect(await createAdministrator(portal.db, 'first.admin', 'another long password')).toEqual({ created: false });
    const row = await account();
    expect(row.enabled).toBe(true);
    expect(await verifyPassword('another long password', row.password_hash ?? '')).toBe(true);
    expect(
      await portal.db
        .selectFrom('user_role')
        .innerJoin('app_user', 'app_user.user_id', 'user_role.user_id')
        .where('user_name', '=', 'first.admin')
        .select('role_id')
        .execute(),
    ).toHaveLength(1);
  });

  it('refuses a short password or an odd user name, and writes nothing', async () => {
    await expect(createAdministrator(portal.db, 'second.admin', 'short')).rejects.toThrow('at least 12 characters');
    await expect(createAdministrator(portal.db, 'bad name', 'a long enough password')).rejects.toThrow(
      '1 to 64 letters',
    );
    expect(
      await portal.db
        .selectFrom('app_user')
        .select('user_id')
        .where('user_name', 'in', ['second.admin', 'bad name'])
        .execute(),
    ).toEqual([]);
  });
});

import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkSignIn, ACCOUNT_FAILURE_LIMIT } from '../src/auth/embedded/sign-in.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * The median of a ÷ b over calls taken in pairs, in alternating order, so that a change in the
 * machine's load falls on both sides of each pair alike.
 */
async function medianRatio(a: () => Promise<unknown>, b: () => Promise<unknown>, pairs = 7): Promise<number> {
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      const first = await timed(a);
      ratios.push(first / (await timed(b)));
    } else {
      const second = await timed(b);
      ratios.push((await timed(a)) / second);
    }
  }
  return ratios.sort((x, y) => x - y)[Math.floor(pairs / 2)] ?? 0;
}

describe('the embedded sign-in', () => {
  test('takes as long for an unknown user name as for a wrong password of a known one', async () => {
    await checkSignIn(portal.db, 'nobody-warmup', 'x');
    const ratio = await medianRatio(
      () => checkSignIn(portal.db, 'no-such-user', 'wrong'),
      () => checkSignIn(portal.db, 'operator2', 'wrong'),
    );
    // Both run one full password check; before, an unknown name answered about eight times faster.
    // (Seven wrong passwords stay under the per-account limit of ten.)
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.7);
    await portal.db
      .updateTable('app_user')
      .set({ failed_sign_ins: 0, failed_sign_ins_since: null })
      .where('user_name', '=', 'operator2')
      .execute();
  }, 60_000);

  test(`refuses an account after ${ACCOUNT_FAILURE_LIMIT} failed sign-ins, even with the right password, whatever address they came from`, async () => {
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++)
      expect(await checkSignIn(portal.db, 'enduser', 'guess')).toEqual({ ok: false, reason: 'invalid' });
    expect(await checkSignIn(portal.db, 'enduser', 'enduser')).toMatchObject({ ok: false, reason: 'locked' });
    // Another account is not affected.
    expect(await checkSignIn(portal.db, 'operator', 'operator')).toEqual({ ok: true, userName: 'operator' });
  }, 60_000);

  test('replaces a hash of an older, lower cost at the next successful sign-in', async () => {
    // A stored hash of the earlier cost (N = 2^14) still verifies, and is upgraded.
    const salt = randomBytes(16);
    const old = [
      'scrypt',
      16384,
      8,
      1,
      salt.toString('base64url'),
      scryptSync('admin', salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64url'),
    ].join('$');
    await portal.db.updateTable('app_user').set({ password_hash: old }).where('user_name', '=', 'admin').execute();
    expect(await checkSignIn(portal.db, 'admin', 'admin')).toEqual({ ok: true, userName: 'admin' });
    const stored = await portal.db
      .selectFrom('app_user')
      .select('password_hash')
      .where('user_name', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(stored.password_hash?.startsWith(`scrypt$${2 ** 17}$8$1$`)).toBe(true);
    expect(await checkSignIn(portal.db, 'admin', 'admin')).toEqual({ ok: true, userName: 'admin' });
  }, 60_000);
});

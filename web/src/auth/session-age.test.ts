import { describe, expect, it } from 'vitest';
import { sessionExpiresAt } from './session-age';

describe('session age', () => {
  it('ends lifetime seconds after auth_time', () => {
    expect(sessionExpiresAt({ profile: { auth_time: 1_000 }, state: undefined }, 3600)).toBe(4_600_000);
  });

  it('falls back to the sign-in start carried in the state', () => {
    const state = { requestUrl: '/', startedAt: 50_000 };
    expect(sessionExpiresAt({ profile: {}, state }, 60)).toBe(110_000);
  });

  it('prefers auth_time over the sign-in start', () => {
    const state = { requestUrl: '/', startedAt: 50_000 };
    expect(sessionExpiresAt({ profile: { auth_time: 10 }, state }, 60)).toBe(70_000);
  });

  it('is unknown without either', () => {
    expect(sessionExpiresAt({ profile: {}, state: null }, 60)).toBeUndefined();
  });
});

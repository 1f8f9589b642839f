import { describe, expect, it } from 'vitest';
import { requestAfterRedirect } from './outbound-guard.js';

const url = new URL('https://api.example.com/hook');
const headers = { Authorization: 'Bearer x', Cookie: 'a=1', 'Content-Type': 'application/json', 'X-Trace': '1' };

describe('requestAfterRedirect', () => {
  it('keeps the method, the body and every header on the same origin for 307 and 308', () => {
    for (const status of [307, 308])
      expect(requestAfterRedirect(status, { url, method: 'POST', headers }, new URL('/v2/hook', url))).toEqual({
        method: 'POST',
        headers,
        keepsBody: true,
      });
  });

  it('sends no credentials to another origin', () => {
    const after = requestAfterRedirect(307, { url, method: 'PUT', headers }, new URL('https://other.example.com/'));
    expect(after).toEqual({
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-Trace': '1' },
      keepsBody: true,
    });
  });

  it('turns a 303, and a 301 or 302 of a POST, into a GET without the body and its content headers', () => {
    for (const [status, method] of [
      [303, 'PUT'],
      [301, 'POST'],
      [302, 'POST'],
    ] as const)
      expect(requestAfterRedirect(status, { url, method, headers }, new URL('/done', url))).toEqual({
        method: 'GET',
        headers: { Authorization: 'Bearer x', Cookie: 'a=1', 'X-Trace': '1' },
        keepsBody: false,
      });
    expect(requestAfterRedirect(303, { url, method: 'HEAD', headers: {} }, url).method).toBe('HEAD');
    expect(requestAfterRedirect(302, { url, method: 'PUT', headers: {} }, url)).toMatchObject({
      method: 'PUT',
      keepsBody: true,
    });
  });
});

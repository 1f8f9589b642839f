import { describe, expect, it } from 'vitest';
import { isSignInPage, loginUrl, readSignInState, safeRequestUrl } from './sign-in-paths';

describe('sign-in paths', () => {
  it('recognises the sign-in pages, with or without a tenant', () => {
    expect(isSignInPage('/user/login')).toBe(true);
    expect(isSignInPage('/3f8e0d3c-5b1e-4a53-9a5d-1b2c3d4e5f60/user/login')).toBe(true);
    expect(isSignInPage('/user/accessDenied')).toBe(true);
    expect(isSignInPage('/user/callback')).toBe(true);
    expect(isSignInPage('/3f8e0d3c-5b1e-4a53-9a5d-1b2c3d4e5f60/devices')).toBe(false);
    expect(isSignInPage('/')).toBe(false);
  });

  it('keeps only request URLs that are paths of this site', () => {
    expect(safeRequestUrl('/t/devices?x=1')).toBe('/t/devices?x=1');
    expect(safeRequestUrl('https://evil.example/')).toBe('/');
    expect(safeRequestUrl('//evil.example/')).toBe('/');
    expect(safeRequestUrl('/\\evil.example/')).toBe('/');
    expect(safeRequestUrl(null, '/home')).toBe('/home');
    expect(safeRequestUrl('/user/login?requestUrl=/x')).toBe('/');
  });

  it('builds the login address with the current path as requestUrl', () => {
    expect(loginUrl('/t/devices?deviceId=5')).toBe('/user/login?requestUrl=%2Ft%2Fdevices%3FdeviceId%3D5');
    expect(loginUrl('/')).toBe('/user/login');
    expect(loginUrl()).toBe('/user/login');
    expect(loginUrl('https://evil.example')).toBe('/user/login');
  });

  it('reads the state carried through sign-in', () => {
    expect(readSignInState({ requestUrl: '/t/rules', startedAt: 5 })).toEqual({ requestUrl: '/t/rules', startedAt: 5 });
    expect(readSignInState({ requestUrl: 'https://evil.example', startedAt: 5 })).toEqual({
      requestUrl: '/',
      startedAt: 5,
    });
    expect(readSignInState('nonsense')).toBeUndefined();
    expect(readSignInState(undefined)).toBeUndefined();
  });
});

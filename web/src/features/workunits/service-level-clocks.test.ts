import { describe, expect, it } from 'vitest';
import { clockText } from './service-level-clocks';

const clock = (changes: Partial<Parameters<typeof clockText>[0]>): Parameters<typeof clockText>[0] => ({
  kind: 'resolution',
  target: '08:00:00',
  status: 'running',
  started: '2026-11-26T09:00:00Z',
  elapsedSeconds: 3600,
  remainingSeconds: 7 * 3600 + 30 * 60,
  due: '2026-11-26T17:00:00Z',
  stopped: null,
  warned: null,
  breached: null,
  ...changes,
});

describe('service level clock text', () => {
  it('says what is left, paused, met, missed or over, coloured by how it stands', () => {
    expect(clockText(clock({}))).toEqual({ text: 'Resolution: 7 hours 30 minutes left', color: 'success' });
    expect(clockText(clock({ warned: '2026-11-26T15:00:00Z', remainingSeconds: 1800 }))).toEqual({
      text: 'Resolution: 30 minutes left',
      color: 'warning',
    });
    expect(clockText(clock({ remainingSeconds: -3700 }))).toEqual({
      text: 'Resolution: 1 hour 1 minute over',
      color: 'error',
    });
    expect(clockText(clock({ status: 'paused', remainingSeconds: 30 }))).toEqual({
      text: 'Resolution: paused, under a minute left',
      color: 'default',
    });
    expect(clockText(clock({ kind: 'response', status: 'met' }))).toEqual({ text: 'Response: met', color: 'success' });
    expect(clockText(clock({ status: 'missed' }))).toEqual({ text: 'Resolution: missed', color: 'error' });
  });
});

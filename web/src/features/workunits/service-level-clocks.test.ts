import { describe, expect, it } from 'vitest';
import { clockText, listClockText } from './service-level-clocks';

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

describe('a list clock’s text', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  const listClock = (changes: Partial<Parameters<typeof listClockText>[0]>): Parameters<typeof listClockText>[0] => ({
    workUnitId: 1,
    targetSeconds: 8 * 3600,
    elapsedSeconds: 3600,
    started: '2026-11-26T09:00:00Z',
    due: '2026-11-26T14:05:00Z',
    running: true,
    paused: false,
    stopped: null,
    warned: null,
    breached: null,
    ...changes,
  });

  it('tells when a running clock is due, or was; paused; met or missed', () => {
    expect(listClockText(listClock({}), now)).toEqual({ text: 'Due in 2 h', color: 'default' });
    expect(listClockText(listClock({ due: '2026-11-26T12:14:30Z' }), now)).toEqual({
      text: 'Due in 14 min',
      color: 'default',
    });
    expect(listClockText(listClock({ warned: '2026-11-26T11:00:00Z' }), now)).toMatchObject({ color: 'warning' });
    expect(listClockText(listClock({ due: '2026-11-26T11:30:00Z' }), now)).toEqual({
      text: 'Due 30 min ago',
      color: 'error',
    });
    expect(listClockText(listClock({ running: false, paused: true, due: null }), now)).toEqual({
      text: 'Paused',
      color: 'default',
    });
    expect(listClockText(listClock({ running: false, due: null, stopped: '2026-11-26T10:00:00Z' }), now)).toEqual({
      text: 'Met',
      color: 'success',
    });
    const missed = listClock({ running: false, due: null, breached: '2026-11-26T10:00:00Z' });
    expect(listClockText(missed, now)).toEqual({ text: 'Missed', color: 'error' });
  });
});

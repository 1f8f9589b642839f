import { describe, expect, it } from 'vitest';
import { deliveryStatus } from './api';

describe('deliveryStatus', () => {
  it('names what became of an email', () => {
    expect(deliveryStatus({ transport: 'outbox', sent: null, error: null }).label).toBe('Kept in outbox');
    expect(deliveryStatus({ transport: 'smtp', sent: '2026-01-01T00:00:00Z', error: null })).toEqual({
      label: 'Sent',
      color: 'success',
    });
    expect(deliveryStatus({ transport: 'smtp', sent: null, error: '550 Mailbox unavailable' })).toEqual({
      label: 'Failed',
      color: 'error',
    });
    expect(deliveryStatus({ transport: 'smtp', sent: null, error: null }).label).toBe('Sending');
  });
});

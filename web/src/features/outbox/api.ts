import { useQuery } from '@tanstack/react-query';
import type { OutboxEmail as OutboxEmailEntity } from '@cfs/contracts/automation';
import { positiveIntId } from '../../lib/ids';
import type { JsonOf } from '../../lib/json-types';
import { listItemQueryOptions } from '../../lib/list-api';

/** The Outbox (Administration): every email the portal sent over SMTP or kept. */
export const OUTBOX_PATH = '/v1/emailOutbox';

export type OutboxEmail = JsonOf<OutboxEmailEntity> & { tenant?: { tenantId: string; name: string } | null };

/** One email by the address's `?emailId=`, read through the list (there is no single-email call). */
export function useOutboxEmail(id: string | null) {
  const emailId = positiveIntId(id);
  const query = useQuery({
    ...listItemQueryOptions<OutboxEmail>(OUTBOX_PATH, `emailId eq ${emailId ?? 0}`, { expand: 'tenant' }),
    enabled: emailId !== null,
  });
  return { ...query, notFound: (id !== null && emailId === null) || (query.isSuccess && query.data === null) };
}

/** What became of an email, as the grid and the drawer say it. */
export function deliveryStatus(email: Pick<OutboxEmail, 'transport' | 'sent' | 'error'>): {
  label: string;
  color: 'success' | 'error' | 'warning' | 'default';
} {
  if (email.transport === 'outbox') return { label: 'Kept in outbox', color: 'default' };
  if (email.sent) return { label: 'Sent', color: 'success' };
  if (email.error) return { label: 'Failed', color: 'error' };
  return { label: 'Sending', color: 'warning' };
}

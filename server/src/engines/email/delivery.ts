import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { RenderedEmail } from '@cfs/contracts/automation';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { ActionFailure } from '../actions/run.js';

/** One email to deliver, as rendered, with what the outbox records beside it. */
export interface OutgoingEmail extends RenderedEmail {
  tenantId: string;
  template: string;
  isImportant: boolean;
  workUnitId: number | null;
}

export type DeliveryResult =
  | { kind: 'kept'; emailId: number; to: string }
  | { kind: 'sent'; emailId: number; to: string; messageId: string }
  | { kind: 'already'; emailId: number; to: string; transport: 'outbox' | 'smtp' };

const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 } as const;

/** An SMTP answer in the 5xx range: the server refuses the message for good, a retry would not change it. */
const isPermanent = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'responseCode' in error &&
  typeof error.responseCode === 'number' &&
  error.responseCode >= 500;

/**
 * Delivers one email once per key (the action run's job key), outside any transaction (DESIGN: no
 * network call inside one):
 * 1. the outbox row is written first, under the key (`job_key` is unique): without SMTP_URL it is
 *    the delivery itself (transport 'outbox'); with it, the row waits for its send (sent null);
 * 2. the SMTP send;
 * 3. the row is marked sent with the server's message id.
 * A rerun of the key (a worker died) finds the row: kept or sent, nothing more happens; waiting
 * (the send failed or the worker died during it), it is sent again, with the same Message-ID so a
 * mail system can recognise a copy. `prepare` renders the email only when no row exists yet; a
 * retry sends what was rendered the first time.
 */
export async function deliverEmail(
  db: Db,
  smtp: Config['smtp'],
  key: string,
  prepare: () => Promise<OutgoingEmail>,
): Promise<DeliveryResult> {
  const outbox = scoped(db, ALL_TENANTS);
  const existing = () => outbox.selectFrom('email_outbox').selectAll().where('job_key', '=', key).executeTakeFirst();
  let row = await existing();
  if (!row) {
    const email = await prepare();
    await scoped(db, { kind: 'some', tenantIds: [email.tenantId] })
      .insertInto('email_outbox', {
        tenant_id: email.tenantId,
        template: email.template,
        is_important: email.isImportant,
        to_addresses: email.to,
        cc_addresses: email.cc || null,
        bcc_addresses: email.bcc || null,
        subject: email.subject,
        body: email.body,
        work_unit_id: email.workUnitId,
        transport: smtp.url ? 'smtp' : 'outbox',
        job_key: key,
      })
      .onConflict((oc) => oc.column('job_key').doNothing())
      .execute();
    row = await existing();
    if (!row) throw new Error(`The outbox row of ${key} was not written.`);
    if (row.transport === 'outbox') return { kind: 'kept', emailId: Number(row.email_id), to: row.to_addresses };
  }
  const emailId = Number(row.email_id);
  if (row.transport === 'outbox' || row.sent)
    return { kind: 'already', emailId, to: row.to_addresses, transport: row.transport === 'smtp' ? 'smtp' : 'outbox' };
  if (!smtp.url) throw new ActionFailure('The email waits for SMTP delivery, but SMTP_URL is no longer set.');
  const transport = nodemailer.createTransport({ url: smtp.url, ...SMTP_TIMEOUTS });
  let messageId: string;
  try {
    const info = await transport.sendMail({
      from: smtp.from,
      to: row.to_addresses,
      ...(row.cc_addresses ? { cc: row.cc_addresses } : {}),
      ...(row.bcc_addresses ? { bcc: row.bcc_addresses } : {}),
      subject: row.subject,
      html: row.body,
      priority: row.is_important ? 'high' : 'normal',
      // The same id on every attempt of this row.
      messageId: `<cfs-outbox-${emailId}.${createHash('sha256').update(key).digest('hex').slice(0, 16)}@cfs-portal>`,
    });
    messageId = info.messageId;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    await outbox
      .updateTable('email_outbox')
      .set({ error: text.slice(0, 2000) })
      .where('email_id', '=', row.email_id)
      .execute();
    if (isPermanent(error)) throw new ActionFailure(`The SMTP server refused the email: ${text}`);
    // A connection problem or a temporary refusal: the job runs again (the runner's attempts).
    throw error;
  } finally {
    transport.close();
  }
  await outbox
    .updateTable('email_outbox')
    .set({ sent: new Date(), smtp_message_id: messageId, error: null })
    .where('email_id', '=', row.email_id)
    .execute();
  return { kind: 'sent', emailId, to: row.to_addresses, messageId };
}

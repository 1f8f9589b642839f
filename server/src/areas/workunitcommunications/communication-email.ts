import { z } from 'zod';
import {
  ACTIVITY_TYPE_LABELS,
  COMMUNICATION_MESSAGES,
  COMMUNICATION_STATUS_LABELS,
} from '@cfs/contracts/communications';
import { STATE_LABELS } from '@cfs/contracts/work-units';
import { loadConfig } from '../../config.js';
import type { Db, Tx } from '../../db/database.js';
import {
  emailDocument,
  footerHtml,
  headerHtml,
  headingHtml,
  isEmailAddress,
  linkHtml,
  paragraphHtml,
  subheadingHtml,
  tableHtml,
} from '../../engines/email/compose.js';
import { deliverEmail, type OutgoingEmail } from '../../engines/email/delivery.js';
import { enqueue } from '../../engines/jobs/queue.js';
import { defineTask } from '../../engines/jobs/task.js';
import {
  communicationLink,
  communicationName,
  findInternalReport,
  formatReportDate,
  type InternalReport,
} from './internal-report.js';

/**
 * The communications' emails (spec 001 §2 Notify Internal, §7 sendInternalNotification, §8):
 * - `internalNotification`: a user's Notify Internal, the internal report to the tenant's
 *   internal notification address;
 * - `nextUpdateDue` / `nextInternalUpdateDue`: the overdue sweep's notices (overdue.ts), to the
 *   service manager and to the internal address.
 * Each is one `workunitcommunications.email` job enqueued in the transaction that asks for it and
 * delivered once per job key (engines/email/delivery.ts), whatever the retries.
 */

/** The template the outbox records for a communication's email (spec 002 §9). */
export const COMMUNICATION_EMAIL_TEMPLATE = 'CfsInternalWuCommNotification';

export const COMMUNICATION_EMAIL_KINDS = ['internalNotification', 'nextUpdateDue', 'nextInternalUpdateDue'] as const;
export type CommunicationEmailKind = (typeof COMMUNICATION_EMAIL_KINDS)[number];

const emailPayload = z.object({
  kind: z.enum(COMMUNICATION_EMAIL_KINDS),
  workUnitCommunicationId: z.uuid(),
  tenantId: z.uuid(),
  /** The due time an overdue notice announces (ISO 8601); null for Notify Internal. */
  dueAt: z.string().nullable(),
  requestedBy: z.string().nullable(),
});
export type CommunicationEmailPayload = z.infer<typeof emailPayload>;

const WORDING: Record<
  CommunicationEmailKind,
  (report: InternalReport, dueAt: Date | null) => { subject: string; heading: string; paragraph: string }
> = {
  internalNotification: (report) => ({
    subject: `Internal notification: ${communicationName(report)}: ${report.title}`,
    heading: 'Internal notification',
    paragraph: `Here is the internal report of ${communicationName(report)}, ${report.title}, for the team to review.`,
  }),
  nextUpdateDue: (report, dueAt) => ({
    subject: `Update due: ${communicationName(report)}: ${report.title}`,
    heading: 'The next update is due',
    paragraph: `The next update of ${communicationName(report)}, ${report.title}, was due at ${formatReportDate(dueAt)} and has not been given. Please update the communication and set its next update.`,
  }),
  nextInternalUpdateDue: (report, dueAt) => ({
    subject: `Internal update due: ${communicationName(report)}: ${report.title}`,
    heading: 'The next internal update is due',
    paragraph: `The next internal bridge update of ${communicationName(report)}, ${report.title}, was due at ${formatReportDate(dueAt)} and has not been given.${report.internalBridge ? ` Internal bridge: ${report.internalBridge}.` : ''}`,
  }),
};

/** Subject and HTML body of a communication's email: the wording of its kind, then the whole internal report. */
export function renderCommunicationEmail(
  report: InternalReport,
  kind: CommunicationEmailKind,
  dueAt: Date | null,
  publicUrl: string,
): { subject: string; body: string } {
  const wording = WORDING[kind](report, dueAt);
  const subject = wording.subject.replace(/[\r\n]+/g, ' ').slice(0, 500);
  const facts: [string, string][] = [
    ['Communication', communicationName(report)],
    ['Title', report.title],
    ['Tenant', report.tenantName],
    ['Status', COMMUNICATION_STATUS_LABELS[report.status] ?? 'unknown'],
    ['Service Manager', report.serviceManager],
    ['Customer Assistance Required', report.customerAssistanceRequired ? 'Yes' : 'No'],
    ['Event Started', formatReportDate(report.eventStarted)],
    ['Event Engaged', formatReportDate(report.eventEngaged)],
    ['Event Mitigated', formatReportDate(report.eventMitigated)],
    ['Event Resolved', formatReportDate(report.eventResolved)],
    ['Next Update', formatReportDate(report.nextUpdate)],
    ['Next Internal Update', formatReportDate(report.nextInternalUpdate)],
    ['Maximum Impact', report.maximumImpact ?? ''],
    ['Current Impact', report.currentImpact ?? ''],
    ['Impacted Services', report.impactedServices ?? ''],
    ['Internal Bridge', report.internalBridge ?? ''],
    ['Root Cause', report.rootCause ?? ''],
  ];
  const parts = [
    headerHtml(report.tenantName),
    headingHtml(wording.heading),
    paragraphHtml(wording.paragraph),
    tableHtml(facts.filter(([, value]) => value !== '')),
  ];
  if (report.details) parts.push(subheadingHtml('Details'), paragraphHtml(report.details));
  parts.push(subheadingHtml('Linked work units'));
  parts.push(
    report.workUnits.length === 0
      ? paragraphHtml('No work units are linked.')
      : tableHtml(
          report.workUnits.map((unit) => [
            `#${unit.workUnitId}`,
            `${unit.title} (${STATE_LABELS[unit.stateId] ?? 'unknown'})`,
          ]),
        ),
  );
  parts.push(subheadingHtml('Activities'));
  parts.push(
    report.activities.length === 0
      ? paragraphHtml('No activities yet.')
      : tableHtml(
          report.activities.map((activity) => {
            const when = formatReportDate(activity.completed ?? activity.created);
            const flags = [
              activity.isComplete ? 'complete' : 'open',
              activity.isCustomerFacing ? 'customer-facing' : 'internal',
            ].join(', ');
            return [
              `${ACTIVITY_TYPE_LABELS[activity.activityType] ?? 'unknown'} · ${when}`,
              `${activity.details} (${flags})`,
            ];
          }),
        ),
  );
  parts.push(
    linkHtml(communicationLink(publicUrl, report), `Open ${communicationName(report)} in the portal`),
    footerHtml(),
  );
  return { subject, body: emailDocument(subject, parts) };
}

/**
 * Where the service manager's notice goes: the service manager field is an email address, or a
 * portal user's name (user name, else display name, of an enabled user with an address); when it
 * is neither, the tenant's internal notification address, so the due update still reaches the team.
 */
export async function serviceManagerAddress(db: Db, serviceManager: string): Promise<string | null> {
  const text = serviceManager.trim();
  if (isEmailAddress(text)) return text;
  const lower = text.toLowerCase();
  const users = await db
    .selectFrom('app_user')
    .select(['user_name', 'display_name', 'email'])
    .where('enabled', '=', true)
    .where('email', 'is not', null)
    .where((eb) =>
      eb.or([eb(eb.fn('lower', ['user_name']), '=', lower), eb(eb.fn('lower', ['display_name']), '=', lower)]),
    )
    .execute();
  const byUserName = users.find((user) => user.user_name.toLowerCase() === lower);
  const byDisplayName = users.filter((user) => user.display_name.toLowerCase() === lower);
  const user = byUserName ?? (byDisplayName.length === 1 ? byDisplayName[0] : undefined);
  return user?.email && isEmailAddress(user.email) ? user.email : null;
}

/** The email has nothing to say any more (the communication is gone, or its due time changed): the job ends without one. */
class NothingToSend extends Error {}

/** What one job delivers: the report read now, to the recipient of its kind. */
async function prepareEmail(db: Db, payload: CommunicationEmailPayload, publicUrl: string): Promise<OutgoingEmail> {
  const report = await findInternalReport(
    db,
    { kind: 'some', tenantIds: [payload.tenantId] },
    payload.workUnitCommunicationId,
  );
  if (!report) throw new NothingToSend();
  const dueAt = payload.dueAt === null ? null : new Date(payload.dueAt);
  let to: string | null;
  if (payload.kind === 'internalNotification') {
    to = report.internalAddress;
  } else {
    // An update given since the sweep (a new due time, or the communication closed) makes the notice stale.
    const current = payload.kind === 'nextUpdateDue' ? report.nextUpdate : report.nextInternalUpdate;
    if (
      report.status === 'Resolved' ||
      report.status === 'Cancelled' ||
      !current ||
      !dueAt ||
      current.getTime() !== dueAt.getTime()
    )
      throw new NothingToSend();
    to =
      payload.kind === 'nextUpdateDue'
        ? ((await serviceManagerAddress(db, report.serviceManager)) ?? report.internalAddress)
        : report.internalAddress;
  }
  if (!to)
    throw new Error(
      `${communicationName(report)}: no recipient for the ${payload.kind} email (${COMMUNICATION_MESSAGES.notifyNoAddress})`,
    );
  const { subject, body } = renderCommunicationEmail(report, payload.kind, dueAt, publicUrl);
  return {
    to,
    cc: '',
    bcc: '',
    subject,
    body,
    tenantId: report.tenantId,
    template: COMMUNICATION_EMAIL_TEMPLATE,
    isImportant: payload.kind !== 'internalNotification',
    workUnitId: null,
  };
}

/** Delivers one communication email once per job key (a retried job finds its outbox row and sends nothing more). */
export async function deliverCommunicationEmail(
  db: Db,
  payload: CommunicationEmailPayload,
  key: string,
): Promise<void> {
  // The worker reads its settings where it runs, as the Send Email action does.
  const config = loadConfig(process.env);
  try {
    await deliverEmail(db, config.smtp, key, () => prepareEmail(db, payload, config.publicUrl));
  } catch (error) {
    if (error instanceof NothingToSend) return;
    throw error;
  }
}

export const communicationEmailTask = defineTask({
  name: 'workunitcommunications.email',
  payload: emailPayload,
  attempts: 5,
  perform: (payload, { db, key }) => deliverCommunicationEmail(db, payload, key),
});

/** Enqueues one communication email in the caller's transaction; one job per key. */
export function enqueueCommunicationEmail(trx: Tx, payload: CommunicationEmailPayload, key: string): Promise<boolean> {
  return enqueue(trx, communicationEmailTask, payload, { key });
}

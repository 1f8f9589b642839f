import { randomBytes } from 'node:crypto';
import {
  COMMUNICATION_MESSAGES,
  type CommunicationStatus,
  type PublicCommunicationReport,
} from '@cfs/contracts/communications';
import { ALL_TENANTS, type TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { HttpError, NotFoundError } from '../../http/errors.js';

/**
 * The published external report: a read-only page for customers at `/status/{token}`, no sign-in.
 * The token is the only key to it, so it is 192 random bits (base64url) and stored under a unique
 * index (looked up, never compared by hand). Publishing again keeps the current link; revoking
 * clears the token, so the old link answers 404 at once, and publishing after that makes a new one.
 */

const TOKEN_BYTES = 24;
/** A token as publishing makes it: base64url of TOKEN_BYTES bytes. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;

/** The web page of a published report (the API answers its data at /v1/public/status/{token}). */
export const externalReportPath = (token: string): string => `/status/${token}`;

/** The per-address limit of the public report: a page refreshing every 60 s stays far below it. */
export const PUBLIC_REPORT_RATE_LIMIT = { max: 60, timeWindow: '1 minute' } as const;

/** Publishes the communication's external report (edit permission); the same link when it is published already. */
export async function publishExternalReport(
  db: Db,
  scope: TenantScope,
  workUnitCommunicationId: string,
): Promise<{ externalReportPath: string }> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const row = await db.transaction().execute((trx) =>
    scoped(trx, scope)
      .updateTable('work_unit_communication')
      .set((eb) => ({
        external_report_token: eb.fn.coalesce('external_report_token', eb.val(token)),
        external_report_published: eb.fn.coalesce('external_report_published', eb.val(new Date())),
      }))
      .where('work_unit_communication_id', '=', workUnitCommunicationId)
      .returning('external_report_token')
      .executeTakeFirst(),
  );
  if (!row?.external_report_token) throw new NotFoundError('The communication');
  return { externalReportPath: externalReportPath(row.external_report_token) };
}

/** Revokes the external report (edit permission): the link stops working at once. Not published is no error. */
export async function revokeExternalReport(db: Db, scope: TenantScope, workUnitCommunicationId: string): Promise<void> {
  const result = await db
    .transaction()
    .execute((trx) =>
      scoped(trx, scope)
        .updateTable('work_unit_communication')
        .set({ external_report_token: null, external_report_published: null })
        .where('work_unit_communication_id', '=', workUnitCommunicationId)
        .executeTakeFirst(),
    );
  if (Number(result.numUpdatedRows) === 0) throw new NotFoundError('The communication');
}

const notPublished = () => new HttpError(404, COMMUNICATION_MESSAGES.reportNotPublished);

/**
 * The published report by its token, as a customer may read it: no service manager, internal
 * bridge, internal update or internal-only activities. The token is the caller's whole right to it,
 * so the read spans every tenant and finds exactly the one communication that carries it.
 */
export async function findPublicReport(db: Db, token: string): Promise<PublicCommunicationReport> {
  if (!TOKEN_SHAPE.test(token)) throw notPublished();
  const all = scoped(db, ALL_TENANTS);
  const row = await all
    .selectFrom('work_unit_communication as c')
    .innerJoin('tenant as t', 't.tenant_id', 'c.tenant_id')
    .select([
      'c.work_unit_communication_id',
      'c.public_work_unit_communication_id',
      'c.title',
      't.name as tenant_name',
      'c.status',
      'c.details',
      'c.customer_assistance_required',
      'c.root_cause',
      'c.event_started',
      'c.event_mitigated',
      'c.event_resolved',
      'c.next_update',
      'c.current_impact',
      'c.maximum_impact',
      'c.impacted_services',
      'c.modified',
    ])
    .where('c.external_report_token', '=', token)
    .executeTakeFirst();
  if (!row) throw notPublished();
  const activities = await all
    .selectFrom('work_unit_communication_activity')
    .select(['activity_type', 'details', 'is_complete', 'completed', 'created'])
    .where('work_unit_communication_id', '=', row.work_unit_communication_id)
    .where('is_customer_facing', '=', true)
    // In the order the steps happened: a past step by when it was completed.
    .orderBy((eb) => eb.fn.coalesce('completed', 'created'))
    .orderBy('created')
    .orderBy('work_unit_communication_activity_id')
    .execute();
  return {
    publicWorkUnitCommunicationId: Number(row.public_work_unit_communication_id),
    title: row.title,
    tenantName: row.tenant_name,
    status: row.status as CommunicationStatus,
    details: row.details,
    customerAssistanceRequired: row.customer_assistance_required,
    rootCause: row.root_cause,
    eventStarted: row.event_started,
    eventMitigated: row.event_mitigated,
    eventResolved: row.event_resolved,
    nextUpdate: row.next_update,
    currentImpact: row.current_impact,
    maximumImpact: row.maximum_impact,
    impactedServices: row.impacted_services,
    modified: row.modified,
    activities: activities.map((activity) => ({
      activityType: activity.activity_type as PublicCommunicationReport['activities'][number]['activityType'],
      details: activity.details,
      isComplete: activity.is_complete,
      completed: activity.completed,
      created: activity.created,
    })),
  };
}

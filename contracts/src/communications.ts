import { z } from 'zod';
import { INVALID_DATE_MESSAGE, dbId, guid, optionalText } from './fields.js';

/**
 * Work unit communications (spec 001 §2 Work Unit Communications, §3 Work unit communication and
 * Communication activity, §4 Communication status, §5 Communication, §7 Communications, §8; 000 §7).
 */
export const COMMUNICATION_MESSAGES = {
  titleRequired: 'Title is required',
  tenantRequired: 'Tenant is required',
  serviceManagerRequired: 'Service Manager is required',
  rootCauseRequired: 'Root Cause is required when the status is Resolved',
  detailsRequired: 'Details are required',
  saveFailed: 'A problem occurred saving the communication. Please try again.',
  saved: 'Communication saved.',
  notifySent: 'Internal Notification sent.',
  notifyFailed: 'Internal Notification failed.',
  notifyNoId: ' No WUCOMM Id was provided.',
  /** The tenant has no internal notification address to send to. */
  notifyNoAddress: 'The tenant has no internal notification email address.',
  workUnitNotVisible: 'One or more work units were not found.',
  linkCrossesTenant: 'Only work units of the communication’s tenant can be linked.',
  reportNotPublished: 'This report is not available.',
} as const;

/** Spec 001 §4: the five statuses, their labels, and the two that close a communication. */
export const COMMUNICATION_STATUSES = [
  'Investigating',
  'ConfirmedImpact',
  'ServiceRestored',
  'Cancelled',
  'Resolved',
] as const;
export type CommunicationStatus = (typeof COMMUNICATION_STATUSES)[number];
export const COMMUNICATION_STATUS_LABELS: Record<CommunicationStatus, string> = {
  Investigating: 'Open - Investigating',
  ConfirmedImpact: 'Open - Confirmed Impact',
  ServiceRestored: 'Open - Service Restored',
  Cancelled: 'Closed - Cancelled',
  Resolved: 'Closed - Resolved',
};
/** nextUpdate is disabled and cleared in these statuses (spec 001 §4). */
export const CLOSED_COMMUNICATION_STATUSES: readonly CommunicationStatus[] = ['Resolved', 'Cancelled'];
export const isClosedCommunicationStatus = (status: string): boolean =>
  (CLOSED_COMMUNICATION_STATUSES as readonly string[]).includes(status);

export const ACTIVITY_TYPES = ['TaskActivity', 'ResolutionActivity'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
/** Past steps are ResolutionActivity, next steps TaskActivity (spec 001 §3). */
export const ACTIVITY_TYPE_LABELS: Record<ActivityType, string> = {
  ResolutionActivity: 'Past step',
  TaskActivity: 'Next step',
};

/** Export All fetches up to this many rows (spec 001 §9). */
export const COMMUNICATION_EXPORT_MAX = 1000;
/** The grid's default page size (spec 000 §7). */
export const COMMUNICATION_PAGE_SIZE = 10;
/** The linked work units search waits this long after typing (spec 001 §2). */
export const LINK_SEARCH_DEBOUNCE_MS = 500;

/** Dates travel as ISO 8601 text in UTC (spec 001 §7 "dates in UTC"). */
const optionalInstant = z.iso
  .datetime({ offset: true, error: INVALID_DATE_MESSAGE })
  .nullable()
  .optional()
  .transform((value) => (value === undefined || value === null ? null : new Date(value).toISOString()));

/** The form's fields, each written to its column (the server's `communicationEntity`). */
export const communicationFieldsSchema = z.object({
  title: z
    .string({ error: COMMUNICATION_MESSAGES.titleRequired })
    .trim()
    .min(1, COMMUNICATION_MESSAGES.titleRequired)
    .max(200),
  tenantId: guid(COMMUNICATION_MESSAGES.tenantRequired),
  serviceManager: z
    .string({ error: COMMUNICATION_MESSAGES.serviceManagerRequired })
    .trim()
    .min(1, COMMUNICATION_MESSAGES.serviceManagerRequired)
    .max(200),
  status: z.enum(COMMUNICATION_STATUSES).optional().default('Investigating'),
  details: optionalText(4000),
  customerAssistanceRequired: z.boolean().optional().default(false),
  rootCause: optionalText(4000),
  eventStarted: optionalInstant,
  eventEngaged: optionalInstant,
  eventMitigated: optionalInstant,
  eventResolved: optionalInstant,
  nextUpdate: optionalInstant,
  nextInternalUpdate: optionalInstant,
  maximumImpact: optionalText(4000),
  currentImpact: optionalText(4000),
  impactedServices: optionalText(4000),
  internalBridge: optionalText(1000),
});

/** PUT v1/workunitcommunications (create) and POST v1/workunitcommunications/{id} (update). */
export const communicationInputSchema = communicationFieldsSchema
  .superRefine((value, context) => {
    if (value.status === 'Resolved' && !value.rootCause)
      context.addIssue({ code: 'custom', path: ['rootCause'], message: COMMUNICATION_MESSAGES.rootCauseRequired });
  })
  // A closed communication has no next update (spec 001 §4): cleared here so the server stores none.
  .transform((value) => (isClosedCommunicationStatus(value.status) ? { ...value, nextUpdate: null } : value));
export type CommunicationInput = z.input<typeof communicationInputSchema>;
export type CommunicationValues = z.output<typeof communicationInputSchema>;

export const communicationActivitySchema = z.object({
  workUnitCommunicationActivityId: z.uuid(),
  workUnitCommunicationId: z.uuid(),
  activityType: z.enum(ACTIVITY_TYPES),
  details: z.string(),
  isCustomerFacing: z.boolean(),
  isComplete: z.boolean(),
  completed: z.date().nullable(),
  created: z.date(),
  createdBy: z.string().nullable(),
});
export type CommunicationActivity = z.infer<typeof communicationActivitySchema>;

/** PUT v1/workunitcommunicationactivities (create, with its communication) and POST /{id} (update). */
export const communicationActivityInputSchema = z.object({
  workUnitCommunicationId: z.uuid(),
  activityType: z.enum(ACTIVITY_TYPES),
  details: z
    .string({ error: COMMUNICATION_MESSAGES.detailsRequired })
    .trim()
    .min(1, COMMUNICATION_MESSAGES.detailsRequired)
    .max(4000),
  isCustomerFacing: z.boolean().optional().default(false),
  isComplete: z.boolean().optional().default(false),
  completed: optionalInstant,
});
export type CommunicationActivityInput = z.input<typeof communicationActivityInputSchema>;

/** A linked work unit as the drawer and the reports show it. */
export const communicationWorkUnitSchema = z.object({
  workUnitId: z.number().int(),
  title: z.string(),
  stateId: z.number().int(),
  severityId: z.number().int(),
  tenantId: z.uuid(),
  tenant: z.object({ name: z.string() }).nullable(),
});
export type CommunicationWorkUnit = z.infer<typeof communicationWorkUnitSchema>;

export const communicationSchema = z.object({
  workUnitCommunicationId: z.uuid(),
  publicWorkUnitCommunicationId: z.number().int(),
  title: z.string(),
  tenantId: z.uuid(),
  tenant: z.object({ name: z.string(), internalNotificationEmailAddress: z.string().nullable() }).nullable().optional(),
  serviceManager: z.string(),
  status: z.enum(COMMUNICATION_STATUSES),
  details: z.string().nullable(),
  customerAssistanceRequired: z.boolean(),
  rootCause: z.string().nullable(),
  eventStarted: z.date().nullable(),
  eventEngaged: z.date().nullable(),
  eventMitigated: z.date().nullable(),
  eventResolved: z.date().nullable(),
  nextUpdate: z.date().nullable(),
  nextInternalUpdate: z.date().nullable(),
  maximumImpact: z.string().nullable(),
  currentImpact: z.string().nullable(),
  impactedServices: z.string().nullable(),
  internalBridge: z.string().nullable(),
  /** Beyond the spec: the next update (or internal update) is past and no update was saved since. */
  isOverdue: z.boolean(),
  isInternalOverdue: z.boolean(),
  /** The published external report's path (`/status/{token}`), or null while it is not published. */
  externalReportPath: z.string().nullable(),
  /** The approved planned-outage change request this communication announces, if any. */
  changeWorkUnitId: z.number().int().nullable(),
  created: z.date(),
  createdBy: z.string().nullable(),
  modified: z.date(),
  userChanged: z.date().nullable(),
  userChangedBy: z.string().nullable(),
  workUnits: z.array(communicationWorkUnitSchema).optional(),
  workUnitCommunicationActivities: z.array(communicationActivitySchema).optional(),
});
export type Communication = z.infer<typeof communicationSchema>;

/** POST v1/workunitcommunications/{id}/workUnits. */
export const communicationLinkSchema = z.object({ workunitIds: z.array(dbId()).min(1).max(100) });

/**
 * The published external report (`GET /api/v1/public/status/{token}`, no sign-in): what a customer
 * may read: no service manager, internal bridge, internal update or internal-only activities.
 */
export const publicCommunicationReportSchema = z.object({
  publicWorkUnitCommunicationId: z.number().int(),
  title: z.string(),
  tenantName: z.string(),
  status: z.enum(COMMUNICATION_STATUSES),
  details: z.string().nullable(),
  customerAssistanceRequired: z.boolean(),
  rootCause: z.string().nullable(),
  eventStarted: z.date().nullable(),
  eventMitigated: z.date().nullable(),
  eventResolved: z.date().nullable(),
  nextUpdate: z.date().nullable(),
  currentImpact: z.string().nullable(),
  maximumImpact: z.string().nullable(),
  impactedServices: z.string().nullable(),
  modified: z.date(),
  activities: z.array(
    communicationActivitySchema.pick({
      activityType: true,
      details: true,
      isComplete: true,
      completed: true,
      created: true,
    }),
  ),
});
export type PublicCommunicationReport = z.infer<typeof publicCommunicationReportSchema>;

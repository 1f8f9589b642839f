import { z } from 'zod';
import { guid } from './fields.js';

/**
 * The compliance checklist (spec 002 §2 Compliance checklist; §3 ComplianceControlSet,
 * ControlStatus; §4 control status transitions; §7; §8; §9 compliance week and toggle colours).
 */

/** The five choices of the status toggle, in the toggle's order (spec 002 §3 ControlStatus). */
export const CONTROL_STATUSES = ['Compliant', 'NonCompliant', 'Poam', 'Exempt', 'Notset'] as const;
export type ControlStatusValue = (typeof CONTROL_STATUSES)[number];

/** What the toggle shows for each status. */
export const CONTROL_STATUS_LABELS: Readonly<Record<ControlStatusValue, string>> = {
  Compliant: 'Compliant',
  NonCompliant: 'Non-Compliant',
  Poam: 'POA&M',
  Exempt: 'Exempt',
  Notset: 'Not Set',
};

/** Toggle colours (spec 002 §9): Compliant green, NonCompliant amber, Poam purple, Exempt teal, Notset grey. */
export const CONTROL_STATUS_COLORS: Readonly<Record<ControlStatusValue, { name: string; hex: string }>> = {
  Compliant: { name: 'green', hex: '#2E7D32' },
  NonCompliant: { name: 'amber', hex: '#FFA000' },
  Poam: { name: 'purple', hex: '#7B1FA2' },
  Exempt: { name: 'teal', hex: '#00897B' },
  Notset: { name: 'grey', hex: '#9E9E9E' },
};

/** Control status messages, verbatim (spec 002 §8, its spelling kept). */
export const CONTROL_STATUS_MESSAGES = {
  statusCreateFailed: 'Control status creation failed.',
  statusCreated: 'Control status sucessfully created.',
  statusUpdateFailed: 'Control status updated failed.',
  statusUpdated: 'Control status sucessfully updated.',
  noteCreateFailed: 'Control note creation failed.',
  noteCreated: 'Control note successfully created.',
  noteUpdateFailed: 'Control note update failed.',
  noteUpdated: 'Control note successfully updated.',
  deleted: 'Control Status successfully deleted.',
  deleteFailed: 'Control Status deletion failed.',
  /** The confirmation before deselecting deletes the record (spec 002 §8 Confirmations). */
  confirmDelete: 'Are you sure you want to delete this Control Status?',
} as const;

/**
 * The message for the outcome of a write (spec 002 §4, §8): a write that only carries a note (a
 * note-only create with status Notset, a patch of /notes alone) speaks of the note, any other of
 * the status. The server answers failures with these texts; the screen shows them as toasts.
 */
export function controlStatusMessage(
  action: 'create' | 'update',
  target: 'status' | 'note',
  outcome: 'success' | 'failure',
): string {
  const m = CONTROL_STATUS_MESSAGES;
  if (action === 'create') {
    if (target === 'note') return outcome === 'success' ? m.noteCreated : m.noteCreateFailed;
    return outcome === 'success' ? m.statusCreated : m.statusCreateFailed;
  }
  if (target === 'note') return outcome === 'success' ? m.noteUpdated : m.noteUpdateFailed;
  return outcome === 'success' ? m.statusUpdated : m.statusUpdateFailed;
}

/** Texts of our own (the spec shows none for these). */
export const COMPLIANCE_MESSAGES = {
  checkDateInvalid: 'Please enter a valid date (YYYY-MM-DD).',
  statusInvalid: `Status must be one of ${CONTROL_STATUSES.join(', ')}.`,
  notesTooLong: 'Notes are at most 4000 characters.',
  tenantRequired: 'Please choose a tenant.',
  controlRequired: 'Please choose a control.',
  controlSetRequired: 'Please choose a control set.',
  controlNotFound: 'The control was not found in the control sets of this tenant.',
  controlSetNotFound: 'The control set was not found.',
  tenantNotFound: 'The tenant was not found.',
  alreadyRecorded: 'This control has a status for this week already.',
  notPatchable: (path: string) => `'${path}' cannot be changed.`,
  copied: (count: number) =>
    count === 1 ? 'Copied 1 control status from last week.' : `Copied ${count} control statuses from last week.`,
  nothingToCopy: 'Last week has no control statuses to copy for the controls without one this week.',
  uploadNotRecognised:
    'The file is not a control set: expected {"name": …, "controls": [{"id", "family", "title", "description"}]} or an OSCAL catalog.',
  uploadNameRequired: 'The control set needs a name.',
  uploadNoControls: 'The control set has no controls.',
  uploadTooManyControls: 'A control set has at most 1000 controls.',
  uploadControlIncomplete: (index: number) => `Control ${index + 1}: id, family and title are required.`,
  uploadDuplicateControl: (id: string) => `Control "${id}" appears twice.`,
  uploadNameTaken: (name: string) => `A control set named "${name}" exists already.`,
  uploadFailed: 'The control set could not be uploaded.',
  sharedRefused: 'Only a user of all tenants may upload a control set shared by every tenant.',
} as const;

/** At most this many controls in one answer of GET v1/controlsets, and in one control set (spec 002 §7: up to 1000 rows). */
export const MAX_CONTROLS = 1000;
export const MAX_CONTROL_NOTES = 4000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * The calendar date a value names, as `YYYY-MM-DD`: a date, or a date-time whose date is taken as
 * written (the user's own calendar day, whatever its offset), or null when it names no real date.
 */
export function calendarDate(value: string): string | null {
  const match = DATE.exec(value.trim());
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return match[0];
}

/** The day a compliance week starts on (0 Sunday, as the US calendar the NIST baselines come with). */
export const WEEK_START_DAY = 0;

/**
 * The first day of the compliance week holding `date` (spec 002 §9: the week runs from its start
 * to its end). Pure calendar arithmetic on dates, never 7×24 hours on instants, so a week across
 * a daylight-saving change still has seven days and the same start in every time zone.
 *
 * @example weekStart('2026-03-11') // '2026-03-08'
 */
export function weekStart(date: string): string {
  const day = calendarDate(date);
  if (day === null) throw new RangeError(`Not a date: ${date}`);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const utc = new Date(Date.UTC(y, m - 1, d));
  utc.setUTCDate(utc.getUTCDate() - ((utc.getUTCDay() - WEEK_START_DAY + 7) % 7));
  return utc.toISOString().slice(0, 10);
}

/** The date `days` days after `date` (both `YYYY-MM-DD`). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The week of a date: its first and last day (inclusive). */
export function complianceWeek(date: string): { start: string; end: string } {
  const start = weekStart(date);
  return { start, end: addDays(start, 6) };
}

/** A week given as any date in it (or a date-time, its date as written): answered as the week's first day. */
export const checkDateSchema = z
  .string({ error: COMPLIANCE_MESSAGES.checkDateInvalid })
  .refine((value) => calendarDate(value) !== null, COMPLIANCE_MESSAGES.checkDateInvalid)
  .transform((value) => weekStart(value));

export const controlStatusValueSchema = z.enum(CONTROL_STATUSES, { error: COMPLIANCE_MESSAGES.statusInvalid });

/** ControlStatus (spec 002 §3): id, checkDate (the week's first day), status, notes, tenantId, controlId. */
export const controlStatusSchema = z.object({
  id: z.uuid(),
  checkDate: z.string().describe('the compliance week, as its first day (YYYY-MM-DD)'),
  status: controlStatusValueSchema,
  notes: z.string(),
  tenantId: z.uuid(),
  controlId: z.uuid(),
  created: z.date(),
  createdBy: z.string().nullable(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
});
export type ControlStatus = z.infer<typeof controlStatusSchema>;

/** A control of a set with its statuses for the asked week and tenant (none, or one). */
export const controlSchema = z.object({
  id: z.uuid(),
  /** The control's identifier in its catalogue: 'AC-1', 'AC-2(1)'. */
  name: z.string(),
  family: z.string(),
  title: z.string(),
  /** The control's statement. */
  description: z.string(),
  sortOrder: z.number().int(),
  controlStatuses: z.array(controlStatusSchema),
});
export type Control = z.infer<typeof controlSchema>;

/** ComplianceControlSet (spec 002 §3). `tenantId` null: shipped with the portal or shared by every tenant. */
export const controlSetSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  source: z.string().nullable(),
  tenantId: z.uuid().nullable(),
  controls: z.array(controlSchema),
});
export type ControlSet = z.infer<typeof controlSetSchema>;

/**
 * GET v1/controlsets: every control set the caller may use, each with its controls (at most
 * MAX_CONTROLS in all) and, given `checkDate` and `tenantId`, each control's status for that
 * tenant in that week. `controlSetId` narrows the answer to one set.
 */
export const controlSetsQuerySchema = z.object({
  checkDate: checkDateSchema.optional(),
  tenantId: guid(COMPLIANCE_MESSAGES.tenantRequired).optional(),
  controlSetId: guid(COMPLIANCE_MESSAGES.controlSetRequired).optional(),
});

export const controlSetsResponseSchema = z.object({
  '@odata.count': z.number().int(),
  value: z.array(controlSetSchema),
});
export type ControlSetsResponse = z.infer<typeof controlSetsResponseSchema>;

const notesSchema = z.string().max(MAX_CONTROL_NOTES, COMPLIANCE_MESSAGES.notesTooLong);

/**
 * POST v1/controlstatuses (spec 002 §7): a new record. Choosing a status sends it with empty notes;
 * a note where no record exists sends status Notset (spec 002 §4).
 */
export const controlStatusCreateSchema = z.object({
  checkDate: checkDateSchema,
  status: controlStatusValueSchema.default('Notset'),
  notes: notesSchema.default(''),
  tenantId: guid(COMPLIANCE_MESSAGES.tenantRequired),
  controlId: guid(COMPLIANCE_MESSAGES.controlRequired),
});
export type ControlStatusCreate = z.input<typeof controlStatusCreateSchema>;

/** The document PATCH v1/controlstatuses/{id} applies its JSON Patch to; only /status and /notes may change. */
export const controlStatusDocumentSchema = z.object({
  id: z.uuid(),
  checkDate: z.string(),
  status: controlStatusValueSchema,
  notes: notesSchema,
  tenantId: z.uuid(),
  controlId: z.uuid(),
});
export type ControlStatusDocument = z.infer<typeof controlStatusDocumentSchema>;
export const CONTROL_STATUS_PATCHABLE = ['status', 'notes'] as const;

/** POST /v1/controlsets/Export() (spec 002 §7): the week of `startDate` for the tenant; one set, or every set. */
export const controlSetExportSchema = z.object({
  startDate: checkDateSchema,
  tenantId: guid(COMPLIANCE_MESSAGES.tenantRequired),
  controlSetId: guid(COMPLIANCE_MESSAGES.controlSetRequired).optional(),
});

/** The export's file name: the week's first day in it. */
export const complianceExportFileName = (weekStartDate: string): string => `compliance-${weekStartDate}.csv`;

/** POST v1/controlstatuses/copyLastWeek: last week's statuses and notes for this week's controls that have none yet. */
export const copyLastWeekSchema = z.object({
  controlSetId: guid(COMPLIANCE_MESSAGES.controlSetRequired),
  tenantId: guid(COMPLIANCE_MESSAGES.tenantRequired),
  checkDate: checkDateSchema,
});
export const copyLastWeekResultSchema = z.object({ copied: z.number().int(), message: z.string() });
export type CopyLastWeekResult = z.infer<typeof copyLastWeekResultSchema>;

/**
 * PUT v1/controlsets: a control set file, in the shape the portal ships its baselines in, or an
 * OSCAL catalog (`catalog.groups[].controls[]`, enhancements nested in `controls`). The body is
 * read by the server (either shape); `tenantId` in the query makes it that tenant's own, without
 * it the set is shared by every tenant.
 */
export const controlSetFileControlSchema = z.object({
  id: z.string(),
  family: z.string(),
  title: z.string(),
  description: z.string().optional(),
});
export const controlSetFileSchema = z.object({
  name: z.string(),
  description: z.string().nullable().optional(),
  source: z.string().nullable().optional(),
  controls: z.array(controlSetFileControlSchema),
});
export type ControlSetFile = z.infer<typeof controlSetFileSchema>;
export const controlSetUploadQuerySchema = z.object({ tenantId: guid(COMPLIANCE_MESSAGES.tenantRequired).optional() });

/** A control set without its controls: what an upload answers. */
export const controlSetSummarySchema = controlSetSchema
  .omit({ controls: true })
  .extend({ controlCount: z.number().int() });
export type ControlSetSummary = z.infer<typeof controlSetSummarySchema>;

/** The POA&M work unit of a control NonCompliant two weeks in a row (beyond the spec): its title. */
export const poamTitle = (controlName: string, title: string): string => `POA&M: ${controlName} ${title}`;
/** The work unit relation that links a POA&M work unit to its control. */
export const POAM_REFERENCE_TYPE = 'ComplianceControl';

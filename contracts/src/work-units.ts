import { z } from 'zod';
import {
  EMAIL_PATTERN,
  INVALID_DATE_MESSAGE,
  PHONE_PATTERN,
  URL_PATTERN,
  dbId,
  guid,
  optionalMatching,
} from './fields.js';
import { bulkIdsSchema, bulkResultSchema } from './api.js';

/** Work units (spec 001 §2 Work units list/panel, §3 Work unit, §4, §5, §7 Work units, §8, §9). */
export const WORK_UNIT_STATES = {
  New: 1,
  Acknowledged: 2,
  InProgress: 3,
  OnHold: 4,
  Mitigated: 5,
  Resolved: 6,
  Closed: 7,
  Canceled: 8,
} as const;
export const STATE_LABELS: Record<number, string> = {
  1: 'New',
  2: 'Acknowledged',
  3: 'In Progress',
  4: 'On Hold',
  5: 'Mitigated',
  6: 'Resolved',
  7: 'Closed',
  8: 'Canceled',
};
/** The default list hides these (spec 001 §2). */
export const FINISHED_STATES: readonly number[] = [
  WORK_UNIT_STATES.Resolved,
  WORK_UNIT_STATES.Closed,
  WORK_UNIT_STATES.Canceled,
];

export const SEVERITIES = { Sev0: 0, Sev1: 1, Sev2: 2, Sev3: 3, Sev4: 4 } as const;
export const SEVERITY_LABELS: Record<number, string> = { 0: 'Sev0', 1: 'Sev1', 2: 'Sev2', 3: 'Sev3', 4: 'Sev4' };

export const WORK_UNIT_TYPES = { Incident: 1, ChangeRequest: 2, Intake: 3, Request: 4, Legacy: 5 } as const;

export const EFFORT_OPTIONS = [1, 2, 3, 5, 8, 13] as const;
export const EXPERIENCE_SCORES = ['Great', 'Average', 'Poor'] as const;

/** Work unit event types in spec order (spec 001 §3), consumed by the protocol engine. */
export const WORK_UNIT_EVENT_TYPES = {
  OnNew: 1,
  OnAcknowledged: 2,
  OnHold: 3,
  OnResolved: 4,
  OnClosed: 5,
  OnCanceled: 6,
  OnTimer: 7,
  OnChange: 8,
  OnInProgress: 9,
  OnMitigated: 10,
} as const;

/** The event a state change raises (spec 001 §3 event types): reaching New again (a reopened unit) raises OnNew too. */
export const EVENT_FOR_STATE: Record<number, number> = {
  1: WORK_UNIT_EVENT_TYPES.OnNew,
  2: WORK_UNIT_EVENT_TYPES.OnAcknowledged,
  3: WORK_UNIT_EVENT_TYPES.OnInProgress,
  4: WORK_UNIT_EVENT_TYPES.OnHold,
  5: WORK_UNIT_EVENT_TYPES.OnMitigated,
  6: WORK_UNIT_EVENT_TYPES.OnResolved,
  7: WORK_UNIT_EVENT_TYPES.OnClosed,
  8: WORK_UNIT_EVENT_TYPES.OnCanceled,
};

export const HISTORY_TYPES = {
  General: 1,
  FieldChange: 2,
  ProtocolActionActivity: 3,
  ProtocolActionFailure: 4,
  WorkUnitEvent: 5,
  WorkUnitStateChange: 6,
} as const;
export const HISTORY_TYPE_LABELS: Record<number, string> = {
  1: 'General',
  2: 'FieldChange',
  3: 'ProtocolActionActivity',
  4: 'ProtocolActionFailure',
  5: 'WorkUnitEvent',
  6: 'WorkUnitStateChange',
};

/** The states a user may choose (spec 001 §4): a new unit only New; from New only New, Acknowledged or Canceled. */
export function allowedNextStates(current: number | null): number[] {
  if (current === null) return [WORK_UNIT_STATES.New];
  if (current === WORK_UNIT_STATES.New)
    return [WORK_UNIT_STATES.New, WORK_UNIT_STATES.Acknowledged, WORK_UNIT_STATES.Canceled];
  return Object.values(WORK_UNIT_STATES);
}

export const WORK_UNIT_MESSAGES = {
  titleRequired: 'Please enter the title',
  /** Not in the spec's words (its rule is a minimum of 3). */
  titleTooShort: 'The title needs at least 3 characters.',
  /** The access request's message (spec 001 §5), used for every email field. */
  emailInvalid: 'Please enter a valid email address.',
  phoneInvalid: 'Please enter a valid phone number.',
  urlInvalid: 'Please enter a full web address starting with http:// or https://.',
  severityRequired: 'Please choose a severity.',
  typeRequired: 'Please choose a work unit type.',
  tenantRequired: 'Please choose a tenant.',
  resolutionRequired: 'Please enter the resolution.',
  implementationPlanRequired: 'Please enter the implementation plan.',
  rollbackPlanRequired: 'Please enter the rollback plan.',
  affectedResourcesRequired: 'Please enter the affected resources.',
  environmentRequired: 'Please enter the environment.',
  expectedAlertsRequired: 'Please enter the expected CFS alerts.',
  approver1Required: 'Please choose approver 1.',
  plannedStartRequired: 'Please enter a valid planned start time.',
  plannedFinishRequired: 'Please enter a valid planned finish time.',
  plannedOrder: 'Planned Finish Time must be equal to or greater than Planned Start Time.',
  maxLength4000: 'Must be 4000 characters or fewer.',
  stakeholderNameRequired: 'Please enter the stakeholder name.',
  stakeholderEmailRequired: 'Please enter the stakeholder email.',
  stakeholderPhoneRequired: 'Please enter the stakeholder phone number.',
  stateNotAllowed: 'That state cannot be chosen from the current state.',
  customValueNotAnOption: 'Please choose one of the options of this field.',
  effortNotAnOption: 'Please choose an effort of 1, 2, 3, 5, 8 or 13.',
  modifiedByAnother:
    'This Work Unit was modified by another user. Please discard your changes without saving and refresh it.',
  refreshAndRetry: 'Please refresh the Work Unit and try again.',
  invalidInput: 'Invalid user input was sent to the API. Please verify your input and try again.',
  serverError:
    'A server error prevented saving this Work Unit. These errors are often temporary. Please retry saving in just a moment.',
  unknownError: 'An unknown error has occurred. Please retry saving in just a moment.',
  acknowledged: (id: number) => `Work unit #${id} acknowledged.`,
  /** Not in the spec (its success texts name no other save): worded like the acknowledgement. */
  created: (id: number) => `Work unit #${id} created.`,
  saved: (id: number) => `Work unit #${id} saved.`,
  approveFailed: 'Change Request approval action failed.',
  declineFailed: 'Change Request decline action failed.',
  approverMismatch: (approver: string) => `Authenticated user does not match ${approver}`,
  /** Not in the spec: separation of duties, a change is approved by someone its editor named. */
  selfApprover: 'You cannot name yourself as an approver; ask someone else to approve the change.',
  /** Not in the spec: separation of duties, the two approvals of a change come from two people. */
  sameApprover: 'Approver 2 must be someone other than Approver 1.',
  alreadyChangeRequest: 'This work unit already is a Change Request.',
  noteSaveFailed: 'Unable to save note.',
  noteAdded: 'Note added successfully!',
  noNotes: 'No notes for this incident.',
  callMeSuccess: 'Your call back request has been received. You should receive a call within the next 15 minutes.',
  callMeFailed: 'A problem occured making your call back request.',
  noProperties: 'No properties found.',
  noAdditionalProperties: 'This work unit does not have any additional properties.',
  /** Not in the spec: an intake whose answers its tenant's intake form does not accept. */
  intakeAnswersInvalid: 'The answers do not match the tenant’s intake form:',
  pleaseMakeSelection: 'Please make a selection',
  noteRequired: 'Please enter a note.',
  /** Not in the spec: a bulk change that could not be sent at all (each unit's refusal is listed instead). */
  bulkFailed: 'A problem occurred changing the selected work units. Please try again.',
  /** The server's conflict text; the panel looks for this phrase (spec 001 §8). */
  testValueConflict: 'is not equal to the test value',
} as const;

export const TEXT_MAX = 4000;
export const customValueFields = [
  'customValue1',
  'customValue2',
  'customValue3',
  'customValue4',
  'customValue5',
  'customValue6',
  'customValue7',
  'customValue8',
  'customValue9',
  'customValue10',
  'customValue11',
  'customValue12',
  'customValue13',
  'customValue14',
  'customValue15',
] as const;
export type CustomValueField = (typeof customValueFields)[number];

const text = (max = TEXT_MAX) => z.string().max(max, WORK_UNIT_MESSAGES.maxLength4000).nullable().optional();
const isoDate = z.iso.datetime({ offset: true, error: INVALID_DATE_MESSAGE }).nullable().optional();

export const relationSchema = z.object({
  referenceId: z.string().min(1).max(200),
  referenceType: z.string().min(1).max(50),
});
export type WorkUnitRelation = z.infer<typeof relationSchema>;

/**
 * The editable fields of a work unit: the create body (with workUnitId -1) and the document a
 * PATCH applies to. Cross-field rules (change requests, planned times) are in `workUnitRules`.
 */
export const workUnitFieldsSchema = z.object({
  // Missing or blank: the spec's message; present but short: says how long it must be (spec 001 §5: minimum 3).
  title: z
    .string({ error: WORK_UNIT_MESSAGES.titleRequired })
    .trim()
    .min(1, { error: WORK_UNIT_MESSAGES.titleRequired, abort: true })
    .min(3, WORK_UNIT_MESSAGES.titleTooShort)
    .max(400),
  description: text(),
  resolution: text(),
  severityId: z
    .number({ error: WORK_UNIT_MESSAGES.severityRequired })
    .int()
    .min(0, WORK_UNIT_MESSAGES.severityRequired)
    .max(4, WORK_UNIT_MESSAGES.severityRequired),
  effort: z
    .number()
    .int()
    .refine((value) => (EFFORT_OPTIONS as readonly number[]).includes(value), WORK_UNIT_MESSAGES.effortNotAnOption)
    .nullable()
    .optional(),
  stateId: z.number().int().min(1).max(8),
  assignedTo: z.string().max(320).nullable().optional(),
  assignmentGroup: z.string().max(200).nullable().optional(),
  source: z.string().max(200).nullable().optional(),
  tenantId: guid(WORK_UNIT_MESSAGES.tenantRequired),
  workUnitTypeId: dbId(WORK_UNIT_MESSAGES.typeRequired),
  workUnitCategoryId: dbId().nullable().optional(),
  workUnitSubcategoryId: dbId().nullable().optional(),
  /** The protocol the unit follows (its automatic and manual actions). */
  protocolId: dbId().nullable().optional(),
  referenceId: z.string().max(200).nullable().optional(),
  referenceUrl: optionalMatching(URL_PATTERN, WORK_UNIT_MESSAGES.urlInvalid, 2000),
  stakeHolderFullName: z.string().max(200).nullable().optional(),
  stakeHolderPhoneNumber: optionalMatching(PHONE_PATTERN, WORK_UNIT_MESSAGES.phoneInvalid, 50),
  stakeHolderEmailAddress: optionalMatching(EMAIL_PATTERN, WORK_UNIT_MESSAGES.emailInvalid, 320),
  stakeHolderExperienceScore: z.enum(EXPERIENCE_SCORES).nullable().optional(),
  properties: z.string().max(20_000).nullable().optional(),
  plannedStartTime: isoDate,
  plannedFinishTime: isoDate,
  requestedChangeWindow: z.string().max(200).nullable().optional(),
  plannedOutage: z.boolean().nullable().optional(),
  implementer: z.string().max(320).nullable().optional(),
  approver1: z.string().max(320).nullable().optional(),
  approver2: z.string().max(320).nullable().optional(),
  isApproverRequired: z.boolean().nullable().optional(),
  approved1By: z.string().max(320).nullable().optional(),
  approved2By: z.string().max(320).nullable().optional(),
  declined1By: z.string().max(320).nullable().optional(),
  declined2By: z.string().max(320).nullable().optional(),
  decision1Notes: text(),
  decision2Notes: text(),
  implementationPlan: text(),
  rollbackPlan: text(),
  affectedResources: text(),
  securityConsiderations: text(),
  userImpact: text(),
  costImpact: text(),
  environment: z.string().max(200).nullable().optional(),
  expectedCFSAlerts: text(),
  relations: z.array(relationSchema).max(500).optional(),
  ...(Object.fromEntries(
    customValueFields.map((field) => [field, z.string().max(4000).nullable().optional()]),
  ) as Record<CustomValueField, z.ZodOptional<z.ZodNullable<z.ZodString>>>),
});
export type WorkUnitFields = z.infer<typeof workUnitFieldsSchema>;

const blank = (value: string | null | undefined) => !value || !value.trim();
/** Approvers are email addresses: the same person whatever the case or surrounding spaces. */
export const samePerson = (a: string | null | undefined, b: string | null | undefined) =>
  !blank(a) && !blank(b) && (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/** Cross-field rules of spec 001 §5, shared by the panel's form and the server. */
export function workUnitRules(unit: WorkUnitFields, context: z.RefinementCtx): void {
  const require = (ok: boolean, path: string, message: string) => {
    if (!ok) context.addIssue({ code: 'custom', path: [path], message });
  };
  if (unit.workUnitTypeId === WORK_UNIT_TYPES.ChangeRequest) {
    require(!blank(unit.resolution), 'resolution', WORK_UNIT_MESSAGES.resolutionRequired);
    require(!blank(unit.implementationPlan), 'implementationPlan', WORK_UNIT_MESSAGES.implementationPlanRequired);
    require(!blank(unit.rollbackPlan), 'rollbackPlan', WORK_UNIT_MESSAGES.rollbackPlanRequired);
    require(!blank(unit.affectedResources), 'affectedResources', WORK_UNIT_MESSAGES.affectedResourcesRequired);
    require(!blank(unit.environment), 'environment', WORK_UNIT_MESSAGES.environmentRequired);
    require(!blank(unit.expectedCFSAlerts), 'expectedCFSAlerts', WORK_UNIT_MESSAGES.expectedAlertsRequired);
    require(!blank(unit.approver1), 'approver1', WORK_UNIT_MESSAGES.approver1Required);
    require(!!unit.plannedStartTime, 'plannedStartTime', WORK_UNIT_MESSAGES.plannedStartRequired);
    require(!!unit.plannedFinishTime, 'plannedFinishTime', WORK_UNIT_MESSAGES.plannedFinishRequired);
  }
  // Two approvals must come from two people, whatever the unit's type: one person named twice would approve twice.
  if (samePerson(unit.approver1, unit.approver2)) require(false, 'approver2', WORK_UNIT_MESSAGES.sameApprover);
  if (
    unit.plannedStartTime &&
    unit.plannedFinishTime &&
    Date.parse(unit.plannedFinishTime) < Date.parse(unit.plannedStartTime)
  ) {
    require(false, 'plannedFinishTime', WORK_UNIT_MESSAGES.plannedOrder);
  }
}

export const workUnitInputSchema = workUnitFieldsSchema.superRefine(workUnitRules);

/** Whether the unit names a stakeholder at all (any of name, email and phone). */
export function hasStakeholder(
  unit: Pick<WorkUnitFields, 'stakeHolderFullName' | 'stakeHolderEmailAddress' | 'stakeHolderPhoneNumber'>,
): boolean {
  return (
    !blank(unit.stakeHolderFullName) || !blank(unit.stakeHolderEmailAddress) || !blank(unit.stakeHolderPhoneNumber)
  );
}

/**
 * Spec 001 §5 "Stakeholder form: tenant, name, email, phone required": a stakeholder, once named,
 * is named completely (the tenant is required of every unit). A unit without one stays valid: the
 * engines and the Resolution Center (phone number only) create units the panel did not write, so
 * the rule holds where the stakeholder is entered, the panel's form.
 */
export function stakeholderRules(unit: WorkUnitFields, context: z.RefinementCtx): void {
  if (!hasStakeholder(unit)) return;
  const require = (value: string | null | undefined, path: string, message: string) => {
    if (blank(value)) context.addIssue({ code: 'custom', path: [path], message });
  };
  require(unit.stakeHolderFullName, 'stakeHolderFullName', WORK_UNIT_MESSAGES.stakeholderNameRequired);
  require(unit.stakeHolderEmailAddress, 'stakeHolderEmailAddress', WORK_UNIT_MESSAGES.stakeholderEmailRequired);
  require(unit.stakeHolderPhoneNumber, 'stakeHolderPhoneNumber', WORK_UNIT_MESSAGES.stakeholderPhoneRequired);
}

/** The work unit panel's form: the input's rules and the stakeholder form's. */
export const workUnitFormSchema = workUnitFieldsSchema.superRefine((unit, context) => {
  workUnitRules(unit, context);
  stakeholderRules(unit, context);
});

/** PUT /api/v1/workunits: a new unit is sent with workUnitId -1 (spec 001 §5). */
export const workUnitCreateSchema = workUnitFieldsSchema
  .extend({ workUnitId: z.literal(-1) })
  .superRefine(workUnitRules);

/** A JSON Patch operation (RFC 6902) as PATCH /v1/workunits/{id} accepts it. */
export const jsonPatchOperationSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('replace'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('test'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('remove'), path: z.string() }),
  z.object({ op: z.literal('move'), path: z.string(), from: z.string() }),
  z.object({ op: z.literal('copy'), path: z.string(), from: z.string() }),
]);
export const jsonPatchSchema = z
  .array(jsonPatchOperationSchema)
  .max(500)
  .meta({
    examples: [
      [
        { op: 'test', path: '/title', value: 'Mail delayed' },
        { op: 'replace', path: '/title', value: 'Mail delivery delayed for the sales team' },
        { op: 'replace', path: '/stateId', value: 2 },
      ],
    ],
  });

/**
 * A work unit as the API answers it. Its editable fields follow the same per-field rules as the
 * input (every stored unit was written through them); `relations` is always present, and the
 * expansions appear when asked for (a single unit carries them all).
 */
export const workUnitSchema = workUnitFieldsSchema.extend({
  workUnitId: z.number().int(),
  publicWorkUnitId: z.uuid(),
  internalWorkUnitId: z.string().nullable(),
  created: z.iso.datetime({ offset: true }),
  createdBy: z.string().nullable(),
  modified: z.iso.datetime({ offset: true }),
  modifiedBy: z.string().nullable(),
  resolved: z.iso.datetime({ offset: true }).nullable(),
  relations: z.array(relationSchema),
  tenant: z
    .object({ tenantId: z.uuid(), name: z.string(), internalNotificationEmailAddress: z.string().nullable() })
    .nullable()
    .optional(),
  workUnitType: z.object({ workUnitTypeId: z.number().int(), name: z.string() }).nullable().optional(),
  category: z.object({ workUnitCategoryId: z.number().int(), name: z.string() }).nullable().optional(),
  subcategory: z.object({ workUnitSubcategoryId: z.number().int(), name: z.string() }).nullable().optional(),
  protocol: z
    .object({ protocolId: z.number().int(), name: z.string(), manualActions: z.string().nullable() })
    .nullable()
    .optional(),
});
export type WorkUnit = z.output<typeof workUnitSchema>;

export const workUnitNoteInputSchema = z.object({
  workUnitId: dbId(),
  detail: z
    .string({ error: WORK_UNIT_MESSAGES.noteRequired })
    .trim()
    .min(1, WORK_UNIT_MESSAGES.noteRequired)
    .max(TEXT_MAX, WORK_UNIT_MESSAGES.maxLength4000),
  isExternalNote: z.boolean().default(false),
});

export const historyRecordSchema = z.object({
  id: z.number().int(),
  workUnitNoteId: z.number().int(),
  detail: z.string(),
  created: z.date(),
  createdBy: z.string().nullable(),
  historyType: z.number().int().nullable(),
  isExternalNote: z.boolean(),
  historyUrl: z.string().nullable(),
});
export type HistoryRecord = z.infer<typeof historyRecordSchema>;

export const approvalCheckSchema = z.object({
  approverId: z.string(),
  isCurrentUser: z.boolean(),
  displayName: z.string().nullable(),
});

/** POST /v1/workunits/bulk/assign: one assignee (or none) for every selected unit. */
export const workUnitBulkAssignSchema = z.object({
  workUnitIds: bulkIdsSchema(dbId()),
  assignedTo: z.string().trim().max(320).nullable(),
});
export type WorkUnitBulkAssign = z.infer<typeof workUnitBulkAssignSchema>;

/** POST /v1/workunits/bulk/state: one state for every selected unit, each held to the state rules (spec 001 §4). */
export const workUnitBulkStateSchema = z.object({
  workUnitIds: bulkIdsSchema(dbId()),
  stateId: z
    .number({ error: 'Please choose a state.' })
    .int()
    .min(1, 'Please choose a state.')
    .max(8, 'Please choose a state.'),
});
export type WorkUnitBulkState = z.infer<typeof workUnitBulkStateSchema>;

export const workUnitBulkResultSchema = bulkResultSchema(z.number().int());

/** The Resolution Center (spec 001 §2 Resolution Center, §5 Resolution Center request, §8). */
export const RESOLUTION_CENTER_MESSAGES = {
  titleRequired: 'Please enter a title for the Work Unit.',
  descriptionRequired: 'Please enter a Work Unit description',
  descriptionTooLong: 'Must be 4000 characters or fewer.',
  phoneRequired: 'Please enter a phone number.',
  phoneInvalid: WORK_UNIT_MESSAGES.phoneInvalid,
  failed: 'A problem occurred. Please try again.',
  created: 'Successfully created work unit.',
  thanksForFeedback: 'Thank you for your valuable feedback!',
} as const;

/** PUT /api/v1/rc/workunits: what the Create Request drawer sends; the server makes it a Sev3 Incident. */
export const resolutionCenterRequestSchema = z.object({
  tenantId: guid(WORK_UNIT_MESSAGES.tenantRequired).optional(),
  title: z
    .string({ error: RESOLUTION_CENTER_MESSAGES.titleRequired })
    .trim()
    .min(1, RESOLUTION_CENTER_MESSAGES.titleRequired)
    .max(200),
  description: z
    .string({ error: RESOLUTION_CENTER_MESSAGES.descriptionRequired })
    .trim()
    .min(1, RESOLUTION_CENTER_MESSAGES.descriptionRequired)
    .max(4000, RESOLUTION_CENTER_MESSAGES.descriptionTooLong),
  stakeHolderPhoneNumber: z
    .string({ error: RESOLUTION_CENTER_MESSAGES.phoneRequired })
    .trim()
    .min(1, { error: RESOLUTION_CENTER_MESSAGES.phoneRequired, abort: true })
    .max(50, RESOLUTION_CENTER_MESSAGES.phoneInvalid)
    .regex(PHONE_PATTERN, RESOLUTION_CENTER_MESSAGES.phoneInvalid),
  workUnitCategoryId: dbId().nullable().optional(),
  workUnitSubcategoryId: dbId().nullable().optional(),
});
export type ResolutionCenterRequest = z.infer<typeof resolutionCenterRequestSchema>;

/**
 * GET /v1/workunits/rc/categories: the Create Request drawer's Service and Need choices, a
 * tenant's enabled Incident categories shown in the Resolution Center with their enabled subcategories.
 */
export const resolutionCenterCategorySchema = z.object({
  workUnitCategoryId: z.number().int(),
  name: z.string(),
  subcategories: z.array(z.object({ workUnitSubcategoryId: z.number().int(), name: z.string() })),
});
export type ResolutionCenterCategory = z.infer<typeof resolutionCenterCategorySchema>;
export const resolutionCenterCategoriesSchema = z.object({ value: z.array(resolutionCenterCategorySchema) });

/** Resolved, Closed and Canceled show "Done", the others "Active" (spec 001 §4). */
export const resolutionCenterStatus = (stateId: number): 'Active' | 'Done' =>
  FINISHED_STATES.includes(stateId) ? 'Done' : 'Active';

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
import {
  EFFORT_OPTIONS,
  EXPERIENCE_SCORES,
  RESOLUTION_CENTER_MESSAGES,
  TEXT_MAX,
  WORK_UNIT_MESSAGES,
  WORK_UNIT_TYPES,
  customValueFields,
  hasStakeholder,
  isBlank,
  samePerson,
  type CustomValueField,
} from './values/work-units.js';

/** The work units' values (states, labels, messages) live beside, free of the schema library, for the browser's first screen. */
export * from './values/work-units.js';

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

/** Cross-field rules of spec 001 §5, shared by the panel's form and the server. */
export function workUnitRules(unit: WorkUnitFields, context: z.RefinementCtx): void {
  const require = (ok: boolean, path: string, message: string) => {
    if (!ok) context.addIssue({ code: 'custom', path: [path], message });
  };
  if (unit.workUnitTypeId === WORK_UNIT_TYPES.ChangeRequest) {
    require(!isBlank(unit.resolution), 'resolution', WORK_UNIT_MESSAGES.resolutionRequired);
    require(!isBlank(unit.implementationPlan), 'implementationPlan', WORK_UNIT_MESSAGES.implementationPlanRequired);
    require(!isBlank(unit.rollbackPlan), 'rollbackPlan', WORK_UNIT_MESSAGES.rollbackPlanRequired);
    require(!isBlank(unit.affectedResources), 'affectedResources', WORK_UNIT_MESSAGES.affectedResourcesRequired);
    require(!isBlank(unit.environment), 'environment', WORK_UNIT_MESSAGES.environmentRequired);
    require(!isBlank(unit.expectedCFSAlerts), 'expectedCFSAlerts', WORK_UNIT_MESSAGES.expectedAlertsRequired);
    require(!isBlank(unit.approver1), 'approver1', WORK_UNIT_MESSAGES.approver1Required);
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

/**
 * Spec 001 §5 "Stakeholder form: tenant, name, email, phone required": a stakeholder, once named,
 * is named completely (the tenant is required of every unit). A unit without one stays valid: the
 * engines and the Resolution Center (phone number only) create units the panel did not write, so
 * the rule holds where the stakeholder is entered, the panel's form.
 */
export function stakeholderRules(unit: WorkUnitFields, context: z.RefinementCtx): void {
  if (!hasStakeholder(unit)) return;
  const require = (value: string | null | undefined, path: string, message: string) => {
    if (isBlank(value)) context.addIssue({ code: 'custom', path: [path], message });
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
 * One of a work unit's service level clocks as the list expands it (`$expand=resolutionClock`,
 * docs/features/service-levels.md): due while it runs; paused; when it stopped, warned and
 * breached; the business seconds it has counted of its target.
 */
export const workUnitClockSchema = z.object({
  workUnitId: z.number().int(),
  targetSeconds: z.number().int(),
  elapsedSeconds: z.number(),
  started: z.iso.datetime({ offset: true }),
  due: z.iso.datetime({ offset: true }).nullable(),
  running: z.boolean(),
  paused: z.boolean(),
  stopped: z.iso.datetime({ offset: true }).nullable(),
  warned: z.iso.datetime({ offset: true }).nullable(),
  breached: z.iso.datetime({ offset: true }).nullable(),
});
export type WorkUnitClock = z.output<typeof workUnitClockSchema>;

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
  /** The list's service level clocks, when expanded (none on a unit without that clock). */
  responseClock: workUnitClockSchema.nullable().optional(),
  resolutionClock: workUnitClockSchema.nullable().optional(),
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

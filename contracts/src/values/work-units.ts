import type { WorkUnitFields } from '../work-units.js';
import type { SearchField } from './odata.js';

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
  /** Service levels (docs/features/service-levels.md): 75% of a target used, and all of it. */
  OnResponseWarning: 11,
  OnResponseBreach: 12,
  OnResolutionWarning: 13,
  OnResolutionBreach: 14,
} as const;

/** A state change's line in the unit's history: "State changed from New to Acknowledged." */
export function stateChangeDetail(from: number, to: number): string {
  return `State changed from ${STATE_LABELS[from]} to ${STATE_LABELS[to]}.`;
}

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

/** Whether a text is missing or only spaces. */
export const isBlank = (value: string | null | undefined) => !value || !value.trim();
/** Approvers are email addresses: the same person whatever the case or surrounding spaces. */
export const samePerson = (a: string | null | undefined, b: string | null | undefined) =>
  !isBlank(a) && !isBlank(b) && (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/** Whether the unit names a stakeholder at all (any of name, email and phone). */
export function hasStakeholder(
  unit: Pick<WorkUnitFields, 'stakeHolderFullName' | 'stakeHolderEmailAddress' | 'stakeHolderPhoneNumber'>,
): boolean {
  return (
    !isBlank(unit.stakeHolderFullName) ||
    !isBlank(unit.stakeHolderEmailAddress) ||
    !isBlank(unit.stakeHolderPhoneNumber)
  );
}

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
  /** Not in the spec: the empty list of someone who has filed nothing, instead of the grid's "No rows". */
  noRequests: 'You have not filed a request yet. Create one, and follow it here.',
} as const;

/** Resolved, Closed and Canceled show "Done", the others "Active" (spec 001 §4). */
export const resolutionCenterStatus = (stateId: number): 'Active' | 'Done' =>
  FINISHED_STATES.includes(stateId) ? 'Done' : 'Active';

/**
 * The work units grid's searched fields (spec 001 §2): its texts, the tenant's name, and the id only
 * when the text is a number. The server indexes the texts (migration 0010).
 */
export const WORK_UNIT_SEARCH_FIELDS = [
  'title',
  'referenceId',
  'description',
  'tenant/name',
  'assignedTo',
  { path: 'workUnitId', kind: 'number' },
  'stakeHolderFullName',
  'stakeHolderPhoneNumber',
  'stakeHolderEmailAddress',
] as const satisfies readonly SearchField[];

import { compare, type Operation } from 'fast-json-patch';
import {
  workUnitFieldsSchema,
  type WorkUnit,
  type WorkUnitFields,
  type WorkUnitRelation,
} from '@cfs/contracts/work-units';
import { WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';

/**
 * Edits travel as a JSON Patch (RFC 6902) of the difference between the previous and the new
 * state of the editable fields, each change preceded by a `test` of the previous value, so the
 * server refuses a change made on top of a state someone else has changed since (spec 001 §4
 * "the server detects concurrent change", §8 "is not equal to the test value").
 */

/** The editable fields of a work unit, as the server's PATCH document holds them. */
export const EDITABLE_FIELDS = Object.keys(workUnitFieldsSchema.shape) as (keyof WorkUnitFields)[];

export type WorkUnitDocument = Record<keyof WorkUnitFields, unknown>;

/**
 * The editable fields of a unit or of the form's values, every one present: a missing value or
 * an empty text is null (a field typed into and cleared again is no change), relations a list.
 */
export function editableDocument(unit: Partial<WorkUnitFields>): WorkUnitDocument {
  const source = unit as Partial<Record<keyof WorkUnitFields, unknown>>;
  const document = {} as WorkUnitDocument;
  for (const field of EDITABLE_FIELDS) {
    const value = source[field];
    if (field === 'relations')
      document.relations = Array.isArray(value)
        ? value.map((relation: WorkUnitRelation) => ({
            referenceId: relation.referenceId,
            referenceType: relation.referenceType,
          }))
        : [];
    else document[field] = value === undefined || value === '' ? null : value;
  }
  return document;
}

/**
 * `compare(previous, next)` with a `test` of the previous value before every replace and remove
 * (fast-json-patch's invertible mode). Adds carry no test: there was nothing to compare with.
 *
 * @example
 *   diffWithTests({ title: 'Disk full', stateId: 1 }, { title: 'Disk full on db1', stateId: 1 })
 *   // [{ op: 'test', path: '/title', value: 'Disk full' }, { op: 'replace', path: '/title', value: 'Disk full on db1' }]
 */
export function diffWithTests(previous: object, next: object): Operation[] {
  return compare(previous, next, true);
}

export type ApproverNumber = 1 | 2;

/** Approve as approver N (spec 001 §4): approvedNBy becomes the current user. */
export function approvePatch(unit: WorkUnit, approver: ApproverNumber, currentUserEmail: string): Operation[] {
  const field = approver === 1 ? 'approved1By' : 'approved2By';
  return diffWithTests({ [field]: unit[field] ?? null }, { [field]: currentUserEmail });
}

/** Decline as approver N (spec 001 §4): declinedNBy, decisionNNotes and the state Canceled. */
export function declinePatch(
  unit: WorkUnit,
  approver: ApproverNumber,
  currentUserEmail: string,
  notes: string,
): Operation[] {
  const declined = approver === 1 ? 'declined1By' : 'declined2By';
  const decision = approver === 1 ? 'decision1Notes' : 'decision2Notes';
  return diffWithTests(
    { [declined]: unit[declined] ?? null, [decision]: unit[decision] ?? null, stateId: unit.stateId },
    { [declined]: currentUserEmail, [decision]: notes, stateId: WORK_UNIT_STATES.Canceled },
  );
}

/** A change of the unit's relations alone (the Related tab adds and removes them). */
export function relationsPatch(unit: Pick<WorkUnit, 'relations'>, relations: readonly WorkUnitRelation[]): Operation[] {
  return diffWithTests(
    { relations: editableDocument({ relations: unit.relations }).relations },
    { relations: editableDocument({ relations: [...relations] }).relations },
  );
}

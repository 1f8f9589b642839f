import { applyPatch, deepClone } from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import type { WorkUnit } from '@cfs/contracts/work-units';
import { WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import { approvePatch, declinePatch, diffWithTests, editableDocument, relationsPatch } from './work-unit-patch';
import { acknowledgePatch } from './acknowledge-patch';
import { blankWorkUnit, formValuesOf } from './work-unit-form-values';

const TENANT = '6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b';

function savedUnit(overrides: Partial<WorkUnit> = {}): WorkUnit {
  return {
    ...blankWorkUnit(TENANT, 1),
    title: 'Disk full on db1',
    workUnitId: 42,
    publicWorkUnitId: 'WU-42',
    internalWorkUnitId: null,
    protocolId: null,
    created: '2026-03-05T14:00:00.000Z',
    createdBy: 'operator@cfs.example',
    modified: '2026-03-05T14:00:00.000Z',
    modifiedBy: 'operator@cfs.example',
    resolved: null,
    relations: [],
    ...overrides,
  };
}

describe('diffWithTests', () => {
  it('puts a test of the previous value before each replace', () => {
    expect(diffWithTests({ title: 'Disk full', stateId: 1 }, { title: 'Disk full on db1', stateId: 1 })).toEqual([
      { op: 'test', path: '/title', value: 'Disk full' },
      { op: 'replace', path: '/title', value: 'Disk full on db1' },
    ]);
  });

  it('puts a test before a remove and none before an add', () => {
    const ops = diffWithTests({ relations: [{ referenceId: '1', referenceType: 'WorkUnit' }] }, { relations: [] });
    expect(ops).toEqual([
      { op: 'test', path: '/relations/0', value: { referenceId: '1', referenceType: 'WorkUnit' } },
      { op: 'remove', path: '/relations/0' },
    ]);
    expect(diffWithTests({ relations: [] }, { relations: [{ referenceId: '1', referenceType: 'WorkUnit' }] })).toEqual([
      { op: 'add', path: '/relations/0', value: { referenceId: '1', referenceType: 'WorkUnit' } },
    ]);
  });

  it('sends nothing when nothing changed', () => {
    const unit = savedUnit();
    expect(diffWithTests(editableDocument(unit), editableDocument(formValuesOf(unit)))).toEqual([]);
  });

  it('applies cleanly to the previous state and fails on a state someone else changed', () => {
    const previous = editableDocument(savedUnit());
    const next = { ...previous, title: 'Disk full on db2', severityId: 2 };
    const ops = diffWithTests(previous, next);
    expect(applyPatch(deepClone(previous), ops, true).newDocument).toEqual(next);
    const changedMeanwhile = { ...previous, title: 'Someone else' };
    expect(() => applyPatch(deepClone(changedMeanwhile), ops, true)).toThrow(/test/i);
  });
});

describe('editableDocument', () => {
  it('holds every editable field, an empty text and a missing value as null', () => {
    const document = editableDocument({ title: 'A title', description: '', severityId: 0 });
    expect(document.description).toBeNull();
    expect(document.customValue15).toBeNull();
    expect(document.relations).toEqual([]);
    expect(document).not.toHaveProperty('workUnitId');
    expect(document).not.toHaveProperty('created');
  });

  it('makes a field typed into and cleared again no change', () => {
    const unit = savedUnit({ description: null });
    expect(diffWithTests(editableDocument(unit), editableDocument({ ...formValuesOf(unit), description: '' }))).toEqual(
      [],
    );
  });
});

describe('the one-purpose patches', () => {
  it('acknowledges: tests New and the old assignee, sets Acknowledged and the current user', () => {
    expect(acknowledgePatch({ stateId: 1, assignedTo: null }, 'operator@cfs.example')).toEqual([
      { op: 'test', path: '/stateId', value: WORK_UNIT_STATES.New },
      { op: 'replace', path: '/stateId', value: WORK_UNIT_STATES.Acknowledged },
      { op: 'test', path: '/assignedTo', value: null },
      { op: 'replace', path: '/assignedTo', value: 'operator@cfs.example' },
    ]);
  });

  it('approves as approver 2 by setting approved2By', () => {
    expect(approvePatch(savedUnit({ approver2: 'admin@cfs.example' }), 2, 'admin@cfs.example')).toEqual([
      { op: 'test', path: '/approved2By', value: null },
      { op: 'replace', path: '/approved2By', value: 'admin@cfs.example' },
    ]);
  });

  it('declines as approver 1 with notes and the state Canceled', () => {
    const ops = declinePatch(savedUnit({ stateId: 3 }), 1, 'operator@cfs.example', 'Not in the freeze window');
    const after = applyPatch(editableDocument(savedUnit({ stateId: 3 })), ops, true).newDocument;
    expect(after.declined1By).toBe('operator@cfs.example');
    expect(after.decision1Notes).toBe('Not in the freeze window');
    expect(after.stateId).toBe(WORK_UNIT_STATES.Canceled);
    expect(ops.filter((op) => op.op === 'test')).toHaveLength(3);
  });

  it('adds a relation without touching other fields', () => {
    const ops = relationsPatch(savedUnit(), [{ referenceId: '7', referenceType: 'WorkUnit' }]);
    expect(ops).toEqual([{ op: 'add', path: '/relations/0', value: { referenceId: '7', referenceType: 'WorkUnit' } }]);
  });
});

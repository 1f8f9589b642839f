import { describe, expect, it } from 'vitest';
import { approvalEntries, isSameMail } from './approvals';

const none = {
  approver1: null,
  approver2: null,
  approved1By: null,
  approved2By: null,
  declined1By: null,
  declined2By: null,
  decision1Notes: null,
  decision2Notes: null,
};

describe('change request approval entries', () => {
  it('lists the named approvers as pending until they decide', () => {
    expect(approvalEntries({ ...none, approver1: 'operator@cfs.example' })).toEqual([
      { approver: 1, approverId: 'operator@cfs.example', status: 'pending', decidedBy: null, notes: null },
    ]);
  });

  it('shows who approved, and who declined with the notes', () => {
    const entries = approvalEntries({
      ...none,
      approver1: 'operator@cfs.example',
      approver2: 'admin@cfs.example',
      approved1By: 'operator@cfs.example',
      declined2By: 'admin@cfs.example',
      decision2Notes: 'Not during the freeze',
    });
    expect(entries.map((entry) => [entry.status, entry.decidedBy, entry.notes])).toEqual([
      ['approved', 'operator@cfs.example', null],
      ['declined', 'admin@cfs.example', 'Not during the freeze'],
    ]);
  });

  it('compares mails without regard to letter case', () => {
    expect(isSameMail('Operator@CFS.example', 'operator@cfs.example')).toBe(true);
    expect(isSameMail(null, 'operator@cfs.example')).toBe(false);
  });
});

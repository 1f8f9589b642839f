import type { WorkUnit } from '@cfs/contracts/work-units';
import type { ApproverNumber } from './work-unit-patch';

/** One approver of a change request and where their decision stands (spec 001 §2, §4 "Change request approval"). */
export interface ApprovalEntry {
  approver: ApproverNumber;
  /** The approver's mail. */
  approverId: string;
  status: 'pending' | 'approved' | 'declined';
  /** Who approved or declined. */
  decidedBy: string | null;
  /** The notes of a decline. */
  notes: string | null;
}

/** Approver 1 and 2 of a unit, those that are named. */
export function approvalEntries(
  unit: Pick<
    WorkUnit,
    | 'approver1'
    | 'approver2'
    | 'approved1By'
    | 'approved2By'
    | 'declined1By'
    | 'declined2By'
    | 'decision1Notes'
    | 'decision2Notes'
  >,
): ApprovalEntry[] {
  const entries: ApprovalEntry[] = [];
  const slots = [
    {
      approver: 1,
      approverId: unit.approver1,
      approvedBy: unit.approved1By,
      declinedBy: unit.declined1By,
      notes: unit.decision1Notes,
    },
    {
      approver: 2,
      approverId: unit.approver2,
      approvedBy: unit.approved2By,
      declinedBy: unit.declined2By,
      notes: unit.decision2Notes,
    },
  ] as const;
  for (const slot of slots) {
    if (!slot.approverId?.trim()) continue;
    if (slot.declinedBy)
      entries.push({
        approver: slot.approver,
        approverId: slot.approverId,
        status: 'declined',
        decidedBy: slot.declinedBy,
        notes: slot.notes ?? null,
      });
    else if (slot.approvedBy)
      entries.push({
        approver: slot.approver,
        approverId: slot.approverId,
        status: 'approved',
        decidedBy: slot.approvedBy,
        notes: null,
      });
    else
      entries.push({
        approver: slot.approver,
        approverId: slot.approverId,
        status: 'pending',
        decidedBy: null,
        notes: null,
      });
  }
  return entries;
}

/** Whether the signed-in user is this approver: the same mail, letter case aside. */
export function isSameMail(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();
}

import { useState } from 'react';
import type { WorkUnit } from '@cfs/contracts/work-units';
import { WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import { useCurrentUser } from '../../auth/session-data';
import { useApprovalAction, useApprovalCheck } from './api';
import { isSameMail, type ApprovalEntry } from './approvals';
import { approvePatch, declinePatch } from './work-unit-patch';

/**
 * One approver's entry (spec 001 §2, §4 "Change request approval"): who they are, and — for the
 * signed-in approver of a pending entry — approve, or decline with notes (which cancels the unit).
 */
export function useApproval(entry: ApprovalEntry, unit: WorkUnit, onUpdated: (unit: WorkUnit) => void) {
  const currentUser = useCurrentUser();
  const mail = currentUser.email ?? currentUser.userName;
  const check = useApprovalCheck(entry.approverId);
  const approve = useApprovalAction('approve');
  const decline = useApprovalAction('decline');
  const [declining, setDeclining] = useState(false);

  const isCurrentUser = check.data?.isCurrentUser ?? isSameMail(entry.approverId, currentUser.email);
  const canDecide = entry.status === 'pending' && isCurrentUser && unit.stateId !== WORK_UNIT_STATES.Canceled;
  const displayName = check.data?.displayName ? `${check.data.displayName} (${entry.approverId})` : entry.approverId;

  return {
    displayName,
    canDecide,
    busy: approve.isPending || decline.isPending,
    approve: () =>
      approve.mutate(
        { workUnitId: unit.workUnitId, patch: approvePatch(unit, entry.approver, mail) },
        { onSuccess: onUpdated },
      ),
    declining,
    startDecline: () => setDeclining(true),
    cancelDecline: () => setDeclining(false),
    decline: (notes: string) =>
      decline
        .mutateAsync({ workUnitId: unit.workUnitId, patch: declinePatch(unit, entry.approver, mail, notes) })
        .then((updated) => {
          setDeclining(false);
          onUpdated(updated);
        }),
  };
}

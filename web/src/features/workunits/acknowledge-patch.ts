import type { Operation } from 'fast-json-patch';
import { WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import type { WorkUnit } from '@cfs/contracts/work-units';

/** The "(ack)" link (spec 001 §4): Acknowledged and assigned to the current user, on top of New and the old assignee. */
export function acknowledgePatch(
  unit: Pick<WorkUnit, 'stateId' | 'assignedTo'>,
  currentUserEmail: string,
): Operation[] {
  return [
    { op: 'test', path: '/stateId', value: WORK_UNIT_STATES.New },
    { op: 'replace', path: '/stateId', value: WORK_UNIT_STATES.Acknowledged },
    { op: 'test', path: '/assignedTo', value: unit.assignedTo ?? null },
    { op: 'replace', path: '/assignedTo', value: currentUserEmail },
  ];
}

import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import type { WorkUnit } from '@cfs/contracts/work-units';

/** What a work unit's panel may change: the unit without its keys, stamps and expansions. */
const editable = (unit: WorkUnit) => {
  const {
    workUnitId: _1,
    publicWorkUnitId: _2,
    internalWorkUnitId: _3,
    protocolId: _4,
    created: _5,
    createdBy: _6,
    modified: _7,
    modifiedBy: _8,
    resolved: _9,
    tenant: _10,
    workUnitType: _11,
    category: _12,
    subcategory: _13,
    protocol: _14,
    ...fields
  } = unit;
  return fields;
};

/** The panel's patch: the difference between the previous and new state, each change guarded by a test. */
export function workUnitPatch(previous: WorkUnit, changes: Partial<WorkUnit>): Operation[] {
  const before = editable(previous);
  const after = { ...before, ...changes };
  return fastJsonPatch.compare(before, after).flatMap((op) => {
    const old = fastJsonPatch.getValueByPointer(before, op.path) as unknown;
    return op.op === 'add' ? [op] : [{ op: 'test', path: op.path, value: old } as Operation, op];
  });
}

import { LEFT_OPERANDS } from '@cfs/contracts/monitoring';
import { SEVERITY_LABELS, STATE_LABELS, WORK_UNIT_EVENT_TYPES } from '@cfs/contracts/values/work-units';

/** What names the ids a match's reason holds: the caller's tenants, the work unit types, the match's own subject. */
export interface ReasonNames {
  /** Tenant names by id. */
  tenants: ReadonlyMap<string, string>;
  /** Work unit type names by id (as text). */
  workUnitTypes: ReadonlyMap<string, string>;
  subject: { id: string; label: string | null };
}

const EVENT_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(WORK_UNIT_EVENT_TYPES).map(([name, id]) => [String(id), name]),
);

/** The condition kinds whose values are ids, by the left operand's name a reason records. */
const NAMED_BY: Readonly<Record<string, (value: string, names: ReasonNames) => string | undefined>> = {
  [LEFT_OPERANDS.Tenant.name]: (value, names) => names.tenants.get(value),
  [LEFT_OPERANDS.Entity.name]: (value, names) =>
    value === names.subject.id ? (names.subject.label ?? undefined) : undefined,
  [LEFT_OPERANDS.Severity.name]: (value) => SEVERITY_LABELS[Number(value)],
  [LEFT_OPERANDS.WorkUnitState.name]: (value) => STATE_LABELS[Number(value)],
  [LEFT_OPERANDS.WorkUnitType.name]: (value, names) => names.workUnitTypes.get(value),
  [LEFT_OPERANDS.WorkUnitEvent.name]: (value) => EVENT_NAMES[value],
};

/**
 * A value of a match's reason (a condition's right operand, or what it saw) as a person reads it:
 * a tenant or work unit type by its name, the match's subject by its block name, a severity, state
 * or work unit event by its name. Any other value, and an id nothing here names, stays as it is.
 *
 * @example
 *   reasonValueText('Tenant', '6f1a2c3e-…', names)   // 'Contoso'
 *   reasonValueText('Work Unit State', '3', names)   // 'In Progress'
 *   reasonValueText('Metrics.CpuPercent', '80', names) // '80'
 */
export function reasonValueText(leftOperand: string, value: string, names: ReasonNames): string {
  return NAMED_BY[leftOperand]?.(value, names) ?? value;
}

/** Whether a reason's conditions name work unit types, which are then looked up. */
export function reasonNamesWorkUnitTypes(leftOperands: readonly string[]): boolean {
  return leftOperands.includes(LEFT_OPERANDS.WorkUnitType.name);
}

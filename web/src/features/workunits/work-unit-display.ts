import { TEXT_MAX, type WorkUnitRelation } from '@cfs/contracts/work-units';

/** Display rules of the work unit screens (spec 001 §2, §9), pure for tests. */

/** State names shown in words ("In Progress"), for `enumLabel(WORK_UNIT_STATES, id, STATE_NAME_LABELS)`. */
export const STATE_NAME_LABELS = { InProgress: 'In Progress', OnHold: 'On Hold' } as const;

/** Severity cells are coloured by level, except Sev4 (spec 001 §2): background and text. */
export const SEVERITY_COLORS: Readonly<Record<number, { background: string; text: string }>> = {
  0: { background: '#8e0000', text: '#ffffff' },
  1: { background: '#d32f2f', text: '#ffffff' },
  2: { background: '#ef6c00', text: '#ffffff' },
  3: { background: '#fbc02d', text: '#000000' },
};

/** The note's character bar (spec 001 §2, §9): orange from 80 %, red at 100 % of 4000. */
export function noteLengthLevel(length: number, max: number = TEXT_MAX): { percent: number; color: 'primary' | 'warning' | 'error' } {
  const percent = Math.min(100, (length / max) * 100);
  if (length >= max) return { percent, color: 'error' };
  if (length >= max * 0.8) return { percent, color: 'warning' };
  return { percent, color: 'primary' };
}

/**
 * The Properties tab (spec 001 §2): the unit's `properties` JSON text as key/value rows.
 * No text, or text that is not a JSON object → "No properties found."; an object without keys →
 * "This work unit does not have any additional properties.".
 */
export type PropertiesView = { kind: 'none' } | { kind: 'empty' } | { kind: 'entries'; entries: { key: string; value: string }[] };

export function propertiesView(properties: string | null | undefined): PropertiesView {
  if (!properties?.trim()) return { kind: 'none' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(properties);
  } catch {
    return { kind: 'none' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { kind: 'none' };
  const entries = Object.entries(parsed as Record<string, unknown>).map(([key, value]) => ({ key, value: typeof value === 'string' ? value : JSON.stringify(value) }));
  return entries.length === 0 ? { kind: 'empty' } : { kind: 'entries', entries };
}

export const WORK_UNIT_RELATION = 'WorkUnit';
/** At most 100 entries per relation type (spec 001 §2 Related tab, §9). */
export const RELATED_PER_TYPE = 100;

/**
 * Relations grouped by type, at most 100 per type; the WorkUnit group is always there (its
 * search adds to it), the others in the order they first appear.
 */
export function relationGroups(relations: readonly WorkUnitRelation[]): { type: string; referenceIds: string[]; total: number }[] {
  const groups = new Map<string, string[]>([[WORK_UNIT_RELATION, []]]);
  for (const relation of relations) {
    const ids = groups.get(relation.referenceType) ?? [];
    if (!ids.includes(relation.referenceId)) ids.push(relation.referenceId);
    groups.set(relation.referenceType, ids);
  }
  return [...groups].map(([type, ids]) => ({ type, referenceIds: ids.slice(0, RELATED_PER_TYPE), total: ids.length }));
}

/** A name as words: "WorkUnitStateChange" → "Work Unit State Change". */
export function spacedName(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** "Work Unit" for WorkUnit; other types as their name in words. */
export function relationTypeLabel(type: string): string {
  return spacedName(type);
}

/** The empty text of a type: "No related {type}s found." */
export function noRelatedText(type: string): string {
  return `No related ${relationTypeLabel(type)}s found.`;
}

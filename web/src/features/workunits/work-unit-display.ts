import type { WorkUnitRelation } from '@cfs/contracts/work-units';
import { TEXT_MAX } from '@cfs/contracts/values/work-units';

/** Display rules of the work unit screens (spec 001 §2, §9), pure for tests. */

/** State names shown in words ("In Progress"), for `enumLabel(WORK_UNIT_STATES, id, STATE_NAME_LABELS)`. */
export const STATE_NAME_LABELS = { InProgress: 'In Progress', OnHold: 'On Hold' } as const;

/**
 * Severity cells are coloured by level, except Sev4 (spec 001 §2): background and text, each
 * pair at 4.5:1 or more (WCAG AA). Sev2's orange takes black text: white on it read at 3.1:1.
 */
export const SEVERITY_COLORS: Readonly<Record<number, { background: string; text: string }>> = {
  0: { background: '#8e0000', text: '#ffffff' },
  1: { background: '#d32f2f', text: '#ffffff' },
  2: { background: '#ef6c00', text: '#000000' },
  3: { background: '#fbc02d', text: '#000000' },
};

/** The note's character bar (spec 001 §2, §9): orange from 80 %, red at 100 % of 4000. */
export function noteLengthLevel(
  length: number,
  max: number = TEXT_MAX,
): { percent: number; color: 'primary' | 'warning' | 'error' } {
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
export type PropertiesView =
  { kind: 'none' } | { kind: 'empty' } | { kind: 'entries'; entries: { key: string; value: string }[] };

export function propertiesView(properties: string | null | undefined): PropertiesView {
  if (!properties?.trim()) return { kind: 'none' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(properties);
  } catch {
    return { kind: 'none' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { kind: 'none' };
  const entries = propertyEntries(parsed as Record<string, unknown>, '');
  return entries.length === 0 ? { kind: 'empty' } : { kind: 'entries', entries };
}

/**
 * Nested answers (an intake's sections, a list of systems) as rows of their own, named by their
 * path ("person › fullName", "systems 1 › name"), rather than as JSON text: a list of plain values
 * reads as one comma-separated value, yes/no as Yes and No.
 */
function propertyEntries(object: Record<string, unknown>, prefix: string): { key: string; value: string }[] {
  return Object.entries(object).flatMap(([name, value]) => {
    const key = prefix ? `${prefix} › ${name}` : name;
    if (value === null || value === undefined) return [{ key, value: '' }];
    if (typeof value === 'boolean') return [{ key, value: value ? 'Yes' : 'No' }];
    if (Array.isArray(value)) {
      if (value.every((item) => item === null || typeof item !== 'object'))
        return [
          {
            key,
            value: value
              .map((item) => (typeof item === 'boolean' ? (item ? 'Yes' : 'No') : String(item ?? '')))
              .join(', '),
          },
        ];
      return value.flatMap((item, index) =>
        item !== null && typeof item === 'object' && !Array.isArray(item)
          ? propertyEntries(item as Record<string, unknown>, `${key} ${index + 1}`)
          : [{ key: `${key} ${index + 1}`, value: String(item) }],
      );
    }
    if (typeof value === 'object') return propertyEntries(value as Record<string, unknown>, key);
    return [{ key, value: String(value) }];
  });
}

export const WORK_UNIT_RELATION = 'WorkUnit';
/** At most 100 entries per relation type (spec 001 §2 Related tab, §9). */
export const RELATED_PER_TYPE = 100;

/**
 * Relations grouped by type, at most 100 per type; the WorkUnit group is always there (its
 * search adds to it), the others in the order they first appear.
 */
export function relationGroups(
  relations: readonly WorkUnitRelation[],
): { type: string; referenceIds: string[]; total: number }[] {
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

import type { Selectable, Updateable } from 'kysely';
import type { z } from 'zod';
import {
  customValueFields,
  workUnitFieldsSchema,
  type CustomValueField,
  type WorkUnitFields,
  type WorkUnitRelation,
} from '@cfs/contracts/work-units';
import type { DB as Database } from '../../db/schema.js';
import { fieldTypeOf, type ColumnOf } from '../../odata/entity.js';
import { snakeCase, type FieldType } from '../../odata/resource.js';

type Row = Selectable<Database['work_unit']>;
type EditableField = Exclude<keyof WorkUnitFields, 'relations'>;

/** Only the fields whose column is not their name in snake_case. */
const NAMED_COLUMNS = {
  stakeHolderFullName: 'stakeholder_full_name',
  stakeHolderPhoneNumber: 'stakeholder_phone_number',
  stakeHolderEmailAddress: 'stakeholder_email_address',
  stakeHolderExperienceScore: 'stakeholder_experience_score',
  expectedCFSAlerts: 'expected_cfs_alerts',
  ...(Object.fromEntries(customValueFields.map((field, i) => [field, `custom_value_${i + 1}`])) as {
    [K in CustomValueField]: `custom_value_${K extends `customValue${infer N}` ? N : never}`;
  }),
} as const satisfies Partial<Record<EditableField, keyof Row>>;

/** Contract fields without a column: a type error names them. */
type Unmapped = {
  [K in EditableField]-?: ColumnOf<K, typeof NAMED_COLUMNS> extends keyof Row ? never : K;
}[EditableField];
const everyFieldHasItsColumn: [Unmapped] extends [never] ? true : { 'these fields have no column': Unmapped } = true;
void everyFieldHasItsColumn;

const EDITABLE_SCHEMAS = Object.entries(workUnitFieldsSchema.shape).filter(([field]) => field !== 'relations') as [
  EditableField,
  z.ZodType,
][];

/**
 * The one map between a work unit's editable API fields and its columns, read from the contract
 * (each field's column is its name in snake_case unless NAMED_COLUMNS names it): the list resource
 * (which shapes every answer, lists and single items alike), the document a PATCH applies to, and
 * the writes all read it. A field added to the contract and its column to the migration needs no
 * edit here.
 */
export const FIELD_COLUMNS = Object.fromEntries(
  EDITABLE_SCHEMAS.map(([field]) => [
    field,
    Object.hasOwn(NAMED_COLUMNS, field) ? NAMED_COLUMNS[field as keyof typeof NAMED_COLUMNS] : snakeCase(field),
  ]),
) as { readonly [K in EditableField]: ColumnOf<K, typeof NAMED_COLUMNS> & keyof Row };

/** Each editable field's list type, read from its schema (`fieldTypeOf`). */
export const FIELD_TYPES = Object.fromEntries(
  EDITABLE_SCHEMAS.map(([field, schema]) => {
    const type = fieldTypeOf(schema);
    if (!type) throw new Error(`Work unit field '${field}': its list type cannot be read from the contract`);
    return [field, type];
  }),
) as Readonly<Record<EditableField, FieldType>>;

export const EDITABLE_FIELDS = EDITABLE_SCHEMAS.map(([field]) => field);
const DATE_FIELDS = new Set(EDITABLE_FIELDS.filter((field) => FIELD_TYPES[field] === 'datetime'));

export type WorkUnitRow = Row;

/** The editable state of a unit: what the panel edits and a PATCH's `test` operations compare. */
export function toDocument(row: WorkUnitRow, relations: WorkUnitRelation[]): WorkUnitFields {
  const document: Record<string, unknown> = {};
  for (const field of EDITABLE_FIELDS) {
    const value = row[FIELD_COLUMNS[field]];
    document[field] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  document.relations = relations;
  return document as WorkUnitFields;
}

/** The columns to write for a validated document. */
export function toColumns(document: WorkUnitFields): Updateable<Database['work_unit']> {
  const columns: Record<string, unknown> = {};
  for (const field of EDITABLE_FIELDS) {
    const value = document[field];
    if (value === undefined) continue;
    columns[FIELD_COLUMNS[field]] = DATE_FIELDS.has(field) && typeof value === 'string' ? new Date(value) : value;
  }
  return columns as Updateable<Database['work_unit']>;
}

import { defineResource, type FieldDef, type Resource } from '../../odata/resource.js';
import { tenantReference, workUnitTypeReference } from '../../odata/references.js';
import { SEVERITY_LABELS, STATE_LABELS } from '@cfs/contracts/work-units';
import { WORK_UNIT_SEARCH_FIELDS } from '@cfs/contracts/values/work-units';
import { FIELD_COLUMNS, FIELD_TYPES } from './document.js';
import { serviceLevelClockRelations } from '../../engines/servicelevels/clock-resource.js';

/** Enums an export writes by name, as the grid shows them. */
const LABELS: Partial<Record<string, FieldDef['labels']>> = { severityId: SEVERITY_LABELS, stateId: STATE_LABELS };

const editable = Object.fromEntries(
  Object.entries(FIELD_COLUMNS).map(([field, column]) => [
    field,
    { type: FIELD_TYPES[field as keyof typeof FIELD_TYPES], column, labels: LABELS[field] } satisfies FieldDef,
  ]),
);

const categoryReference = defineResource({
  table: 'work_unit_category',
  key: 'workUnitCategoryId',
  fields: { workUnitCategoryId: { type: 'integer' }, name: { type: 'string' } },
});
const subcategoryReference = defineResource({
  table: 'work_unit_subcategory',
  key: 'workUnitSubcategoryId',
  fields: { workUnitSubcategoryId: { type: 'integer' }, name: { type: 'string' } },
});

/** A searched field of the grid that is a text column of the unit's own. */
type SearchText = Exclude<Extract<(typeof WORK_UNIT_SEARCH_FIELDS)[number], string>, `${string}/${string}`>;

/**
 * The grid's searched text fields of a unit (`WORK_UNIT_SEARCH_FIELDS`) as migration 0010 indexes
 * them; its tenant/name is found through the tenants' own index, its workUnitId through the key.
 */
export const WORK_UNIT_SEARCH_TEXTS: readonly SearchText[] = WORK_UNIT_SEARCH_FIELDS.filter(
  (field): field is SearchText => typeof field === 'string' && !field.includes('/'),
);

/** GET v1/workunits: the grid's fields, search fields and expansions (spec 001 §2, §7). */
export const workUnitsResource = defineResource({
  table: 'work_unit',
  key: 'workUnitId',
  fields: {
    workUnitId: { type: 'integer' },
    publicWorkUnitId: { type: 'guid' },
    internalWorkUnitId: { type: 'string' },
    ...editable,
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
    modified: { type: 'datetime' },
    modifiedBy: { type: 'string' },
    resolved: { type: 'datetime' },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id' },
    workUnitType: {
      kind: 'one',
      resource: () => workUnitTypeReference,
      column: 'work_unit_type_id',
      fields: ['workUnitTypeId', 'name'],
    },
    category: {
      kind: 'one',
      resource: () => categoryReference,
      column: 'work_unit_category_id',
      relatedColumn: 'work_unit_category_id',
    },
    subcategory: {
      kind: 'one',
      resource: () => subcategoryReference,
      column: 'work_unit_subcategory_id',
      relatedColumn: 'work_unit_subcategory_id',
    },
    ...serviceLevelClockRelations,
  },
  defaultOrderBy: 'severityId asc, created desc',
  searchFields: WORK_UNIT_SEARCH_TEXTS,
});

const { responseClock: _response, resolutionClock: _resolution, ...unitRelations } = workUnitsResource.relations;

/**
 * GET v1/workunits/rc: the same fields, the Resolution Center's order (created descending, spec
 * 001 §9); the service level clocks are staff's only.
 */
export const resolutionCenterResource: Resource = {
  ...workUnitsResource,
  relations: unitRelations,
  defaultOrderBy: 'created desc',
};

const protocolReference = defineResource({
  table: 'protocol',
  key: 'protocolId',
  fields: { protocolId: { type: 'integer' }, name: { type: 'string' }, manualActions: { type: 'string' } },
});
const relationReference = defineResource({
  table: 'work_unit_relation',
  key: 'referenceId',
  fields: { referenceType: { type: 'string' }, referenceId: { type: 'string' } },
  defaultOrderBy: 'referenceType asc, referenceId asc',
});

/**
 * One work unit as GET v1/workunits/{id} answers it (the contract's WorkUnit): the grid's fields,
 * its relations, and the tenant, type, category, subcategory and protocol it names, in one
 * statement that the database answers as JSON (queries.ts: findWorkUnitJson). Its service level
 * clocks are read on their own (GET v1/servicelevels/timers/{id}).
 */
export const workUnitItemResource: Resource = {
  ...workUnitsResource,
  relations: {
    ...unitRelations,
    protocol: { kind: 'one', resource: () => protocolReference, column: 'protocol_id' },
    relations: { kind: 'many', resource: () => relationReference, column: 'work_unit_id' },
  },
};

/** The expansions of the single item: every relation above. */
export const WORK_UNIT_ITEM_EXPAND = Object.keys(workUnitItemResource.relations).join(',');

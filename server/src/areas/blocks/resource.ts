import { defineResource } from '../../odata/resource.js';
import { tenantReference } from '../../odata/references.js';

/** An entity's colour (table entity_color, set by a rule's set-colour action): what a tile is painted. */
const entityColorReference = defineResource({
  table: 'entity_color',
  key: 'entityId',
  fields: { entityId: { type: 'guid' }, color: { type: 'string' } },
});

/**
 * GET /v1/blocks (spec 002 §7 "filter by subscriptionId or tenant, ordered by name"). The screen
 * shows every tile of its tenant at once, so a page holds up to 1000. Each row carries
 * `entityColor`, `{ color }` or null (expanded for every request by the route); the block's id is
 * the entity's.
 */
export const blocksResource = defineResource({
  table: 'block',
  key: 'blockId',
  fields: {
    blockId: { type: 'guid' },
    tenantId: { type: 'guid' },
    subscriptionId: { type: 'guid' },
    name: { type: 'string' },
    description: { type: 'string' },
    blockTypeId: { type: 'integer' },
    created: { type: 'datetime' },
    createdBy: { type: 'string' },
    modified: { type: 'datetime' },
    modifiedBy: { type: 'string' },
  },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
    entityColor: { kind: 'one', resource: () => entityColorReference, column: 'block_id', relatedColumn: 'entity_id', fields: ['color'] },
  },
  defaultOrderBy: 'name asc',
  defaultTop: 100,
  maxTop: 1000,
});

import { blockSchema, blockUpdateSchema } from '@cfs/contracts/blocks';
import { defineEntity } from '../../odata/entity.js';
import { defineResource } from '../../odata/resource.js';
import { tenantReference } from '../../odata/references.js';

/** An entity's colour (table entity_color, set by a rule's set-colour action): what a tile is painted. */
const entityColorReference = defineResource({
  table: 'entity_color',
  key: 'entityId',
  fields: { entityId: { type: 'guid' }, color: { type: 'string' } },
});

/**
 * A block, described once on its contract: GET /v1/blocks (spec 002 §7 "filter by subscriptionId or
 * tenant, ordered by name"), one block, and the columns an edit writes (its name and description;
 * a create also writes the id, the subscription and its tenant, and the type). The screen shows every
 * tile of its tenant at once, so a page holds up to 1000. Each row carries `entityColor`,
 * `{ color }` or null (expanded for every request by the route); the block's id is the entity's.
 */
export const blockEntity = defineEntity({
  table: 'block',
  key: 'blockId',
  contract: blockSchema,
  writable: blockUpdateSchema,
  fields: { blockTypeId: { type: 'integer' } },
  relations: {
    tenant: { kind: 'one', resource: () => tenantReference, column: 'tenant_id', fields: ['tenantId', 'name'] },
    entityColor: {
      kind: 'one',
      resource: () => entityColorReference,
      column: 'block_id',
      relatedColumn: 'entity_id',
      fields: ['color'],
    },
  },
  defaultOrderBy: 'name asc',
  defaultTop: 100,
  maxTop: 1000,
});

import { PACKET_LIMITS } from '@cfs/contracts/packets';
import { defineResource } from '../../odata/resource.js';

/**
 * GET v1/packets: the latest packet of each entity (spec 002 §7 "filtered by entityId in a list").
 * The blocks screen asks for all its tiles' entities at once, so a page holds up to the largest
 * history page by default rather than the grids' 10. By entity by default: a latest packet's time
 * moves with every packet, so pages in that order would shift under a client walking them, and an
 * index on it would cost each packet's update of its latest row (kept in place, migration 0019).
 */
export const packetsResource = defineResource({
  table: 'packet_latest',
  key: 'entityId',
  fields: {
    entityId: { type: 'guid' },
    tenantId: { type: 'guid' },
    timestamp: { type: 'datetime' },
    received: { type: 'datetime' },
    message: { type: 'json' },
  },
  defaultOrderBy: 'entityId asc',
  defaultTop: PACKET_LIMITS.historyMaxTop,
  maxTop: PACKET_LIMITS.historyMaxTop,
});

import { PACKET_LIMITS } from '@cfs/contracts/packets';
import { defineResource } from '../../odata/resource.js';

/**
 * GET v1/packets: the latest packet of each entity (spec 002 §7 "filtered by entityId in a list").
 * The blocks screen asks for all its tiles' entities at once, so a page holds up to the largest
 * history page by default rather than the grids' 10.
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
  defaultOrderBy: 'timestamp desc',
  defaultTop: PACKET_LIMITS.historyMaxTop,
  maxTop: PACKET_LIMITS.historyMaxTop,
});

import { z } from 'zod';

/**
 * An entity's numeric Values over a time range, folded into buckets, for the History tabs' chart
 * (blocks and the Packet drawer): GET /v1/blocks/{id}/series and GET /v1/packets/{entityId}/series.
 * Each point is one bucket of the range (its start) with the average, lowest and highest Value
 * reported in it; buckets without a numeric Value are left out.
 */
export const SERIES_LIMITS = { defaultBuckets: 120, maxBuckets: 500 } as const;

export const packetSeriesQuerySchema = z.object({
  from: z.iso.datetime({ offset: true, error: 'from must be a date and time with a time zone (ISO 8601)' }),
  to: z.iso.datetime({ offset: true, error: 'to must be a date and time with a time zone (ISO 8601)' }).optional(),
  buckets: z.coerce
    .number({ error: `buckets must be a number from 1 to ${SERIES_LIMITS.maxBuckets}` })
    .int()
    .min(1, `buckets must be a number from 1 to ${SERIES_LIMITS.maxBuckets}`)
    .max(SERIES_LIMITS.maxBuckets, `buckets must be a number from 1 to ${SERIES_LIMITS.maxBuckets}`)
    .default(SERIES_LIMITS.defaultBuckets),
});

export const packetSeriesSchema = z.object({
  from: z.date(),
  to: z.date(),
  bucketSeconds: z.number(),
  points: z.array(
    z.object({
      timestamp: z.date(),
      average: z.number(),
      minimum: z.number(),
      maximum: z.number(),
      count: z.number().int(),
    }),
  ),
});
export type PacketSeries = {
  from: string;
  to: string;
  bucketSeconds: number;
  points: { timestamp: string; average: number; minimum: number; maximum: number; count: number }[];
};

/** What rules did to an entity (table entity_log): a block's or a packet's Logs tab (spec 002 §3 "Block logs use logEntryId, created and detail"). */
export const entityLogEntrySchema = z.object({ logEntryId: z.number().int(), created: z.date(), detail: z.string() });
export const ENTITY_LOGS_LIMIT = 500;

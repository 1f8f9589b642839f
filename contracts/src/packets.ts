import { z } from 'zod';

/**
 * Packets (spec 002 §3 Packet; §7 Blocks and packets): what a device agent or a script reports for
 * an entity (a device, a device operation, or any entity a tenant's scripts report on). The message
 * holds a Value and the groups Properties, Metrics, States and Diagnostics; Properties.BlockName
 * names it.
 */
export const PACKET_GROUPS = ['Properties', 'Metrics', 'States', 'Diagnostics'] as const;
export type PacketGroup = (typeof PACKET_GROUPS)[number];

export const PACKET_LIMITS = {
  /** Items in one POST /v1/packets; a larger batch is refused whole (413). */
  maxBatch: 1000,
  /** The serialised message of one packet, in characters. */
  maxMessageChars: 64 * 1024,
  /** How far ahead of the server's clock a packet's timestamp may be (agents' clocks drift). */
  futureToleranceMs: 24 * 60 * 60 * 1000,
  /** Rows of one page of an entity's history. */
  historyDefaultTop: 100,
  historyMaxTop: 1000,
} as const;

export const PACKET_MESSAGES = {
  batchEmpty: 'Send one packet or an array of at least one packet.',
  batchTooLarge: (max: number) => `A batch holds at most ${max} packets; send the rest in another request.`,
  itemProblem: (item: number, problem: string) => `Item ${item}: ${problem}`,
  entityNotAllowed: 'this caller may not report packets for this entity',
  tooOld: (days: number) => `timestamp is older than the ${days} days packets are kept`,
  tooNew: 'timestamp is more than a day ahead of the server clock',
  rejected: 'The packets were not stored.',
} as const;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: 'must be text, a number, true, false or null',
});

/**
 * One packet as an agent sends it. The `error` texts name the problem; the server prefixes
 * "Item n: ", and the field's path where the text does not start with it ("message.Metrics.Cpu must be a number").
 */
export const packetInputSchema = z.object(
  {
    entityId: z.guid({ error: 'entityId must be a GUID' }).transform((value) => value.toLowerCase()),
    timestamp: z.iso.datetime({ offset: true, error: 'timestamp must be a date and time with a time zone (ISO 8601)' }),
    message: z.object(
      {
        Value: scalar.optional(),
        Properties: z
          .record(z.string(), scalar, { error: 'message.Properties must be an object of names and values' })
          .optional(),
        Metrics: z
          .record(z.string(), z.number({ error: 'must be a number' }).nullable(), {
            error: 'message.Metrics must be an object of names and numbers',
          })
          .optional(),
        States: z
          .record(z.string(), scalar, { error: 'message.States must be an object of names and values' })
          .optional(),
        Diagnostics: z.record(z.string(), z.unknown(), { error: 'message.Diagnostics must be an object' }).optional(),
      },
      { error: 'message must be a JSON object' },
    ),
  },
  { error: 'a packet must be an object with entityId, timestamp and message' },
);
export type PacketInput = z.infer<typeof packetInputSchema>;

/** The message as stored and answered: the groups may carry other fields an agent added. */
export const packetMessageSchema = z.record(z.string(), z.unknown());
export type PacketMessage = {
  Value?: string | number | boolean | null;
  Properties?: Record<string, unknown>;
  Metrics?: Record<string, number | null>;
  States?: Record<string, unknown>;
  Diagnostics?: Record<string, unknown>;
  [other: string]: unknown;
};

/** A stored packet: the latest of an entity (GET /v1/packets) or one of its history. */
export const packetSchema = z.object({
  entityId: z.guid(),
  tenantId: z.uuid(),
  timestamp: z.date(),
  received: z.date(),
  message: packetMessageSchema,
});
export type Packet = Omit<z.infer<typeof packetSchema>, 'timestamp' | 'received' | 'message'> & {
  timestamp: string;
  received: string;
  message: PacketMessage;
};

/** POST /v1/packets answer: how many were accepted and how many were new (re-sent ones are stored once). */
export const ingestResultSchema = z.object({ accepted: z.number().int(), stored: z.number().int() });
export type IngestResult = z.infer<typeof ingestResultSchema>;

/** GET /v1/packets/{entityId}/history: newest first, one page at a time. */
export const packetHistoryQuerySchema = z.object({
  from: z.iso.datetime({ offset: true, error: 'from must be a date and time with a time zone (ISO 8601)' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'to must be a date and time with a time zone (ISO 8601)' }).optional(),
  $top: z.coerce
    .number({ error: '$top must be a number' })
    .int()
    .min(1)
    .max(PACKET_LIMITS.historyMaxTop)
    .default(PACKET_LIMITS.historyDefaultTop),
  $skiptoken: z.string().max(200).optional(),
});

/** The answer of GET /v1/packets/{entityId}/history: a page and, when more follow, the link to the next. */
export const packetHistorySchema = z.object({
  value: z.array(packetSchema),
  '@odata.nextLink': z.string().optional().describe('the next page: this request with $skiptoken'),
});
export type PacketHistory = { value: Packet[]; '@odata.nextLink'?: string };

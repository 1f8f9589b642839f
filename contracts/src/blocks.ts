import { z } from 'zod';
import { guid, requiredText } from './fields.js';
import { SHELL_MESSAGES } from './messages.js';
import { BLOCK_TYPES, MONITORING_LIMITS } from './monitoring.js';

/** Blocks (spec 002 §2 Blocks, §3 Block, §4 Block, §5 Block, §7 Blocks and packets, §8, §9). */
export const BLOCK_MESSAGES = {
  nameRequired: 'Name is required',
  blockIdInvalid: 'Please enter a valid v4 or v5 GUID',
  typeRequired: 'Type is required',
  /** Not in the spec's catalogue: a deviceHeartbeat block is the agents' own (§5 "deviceHeartbeat cannot be chosen"). */
  heartbeatRefused: 'Device heartbeat blocks cannot be created; please choose another type.',
  /**
   * Not in the spec's catalogue: the id is the entity's, an entity has one block and one owning
   * tenant, and the text is the same whoever holds the id (server/src/areas/blocks/commands.ts).
   */
  blockIdUnavailable: 'This Block ID cannot be used; please enter another.',
  tenantRequired: SHELL_MESSAGES.tenantRequired,
  subscriptionRequired: SHELL_MESSAGES.subscriptionRequired,
  saveFailed: 'A problem occurred saving the block. Please try again.',
  saved: 'Block saved.',
  deleted: 'Block deleted successfully.',
  deleteFailed: 'A problem occured deleting the block. Please try again.',
  deleteConfirm: 'Are you sure you want to delete this block?',
  noBlocks: 'No blocks found',
  noHistory: 'No History Found.',
  noPacket: 'No packet for this entity.',
  noData: 'No data reported',
} as const;

/** The type labels the form and the tiles show. */
export const BLOCK_TYPE_LABELS: Record<number, string> = {
  [BLOCK_TYPES.numeric]: 'Numeric',
  [BLOCK_TYPES.smallText]: 'Small Text',
  [BLOCK_TYPES.deviceHeartbeat]: 'Device Heartbeat',
};
/** The types a person may choose (§5: deviceHeartbeat cannot be chosen). */
export const CHOOSABLE_BLOCK_TYPES = [BLOCK_TYPES.numeric, BLOCK_TYPES.smallText] as const;

/** A GUID of version 4 (random) or 5 (name-based, SHA-1), RFC 4122 variant (§5 Block ID). */
export const V4_OR_V5_GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[45][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const name = requiredText(BLOCK_MESSAGES.nameRequired, 200);
const description = z
  .string()
  .trim()
  .max(2000)
  .nullable()
  .optional()
  .transform((value) => (value === undefined || value === '' ? null : value));

/** POST /v1/blocks/{id} (§4: an edit sends only name and description); a create sends them too. */
export const blockUpdateSchema = z.object({ name, description });
export type BlockUpdateInput = z.input<typeof blockUpdateSchema>;
export type BlockUpdateValues = z.output<typeof blockUpdateSchema>;

/** PUT /v1/blocks (create): blockId, subscriptionId, name, description, blockTypeId; the tenant is the subscription's. */
export const blockCreateSchema = z.object({
  blockId: z
    .string({ error: BLOCK_MESSAGES.blockIdInvalid })
    .trim()
    .regex(V4_OR_V5_GUID, BLOCK_MESSAGES.blockIdInvalid)
    .transform((value) => value.toLowerCase()),
  subscriptionId: guid(BLOCK_MESSAGES.subscriptionRequired),
  /** The form's Tenant choice; when given, it must be the subscription's tenant. */
  tenantId: guid(BLOCK_MESSAGES.tenantRequired).nullable().optional(),
  ...blockUpdateSchema.shape,
  blockTypeId: z
    .number({ error: BLOCK_MESSAGES.typeRequired })
    .int(BLOCK_MESSAGES.typeRequired)
    .refine((value) => value !== BLOCK_TYPES.deviceHeartbeat, BLOCK_MESSAGES.heartbeatRefused)
    .refine(
      (value) => value === BLOCK_TYPES.deviceHeartbeat || (CHOOSABLE_BLOCK_TYPES as readonly number[]).includes(value),
      BLOCK_MESSAGES.typeRequired,
    ),
});
export type BlockCreateInput = z.input<typeof blockCreateSchema>;
export type BlockCreateValues = z.output<typeof blockCreateSchema>;

export const blockSchema = z.object({
  blockId: z.uuid(),
  tenantId: z.uuid(),
  subscriptionId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  blockTypeId: z.number(),
  created: z.date(),
  createdBy: z.string().nullable(),
  modified: z.date(),
  modifiedBy: z.string().nullable(),
  /** The colour a rule's set-colour action gave the entity (hex without '#'), or null: on every list row, and on one block. */
  entityColor: z.object({ color: z.string() }).nullable().optional(),
  tenant: z.object({ tenantId: z.uuid(), name: z.string() }).nullable().optional(),
});
export type Block = z.infer<typeof blockSchema>;

/** GET /v1/blocks/{blockId}/history?pageNumber&rowCount (&from&to): pages of 100, newest first. */
export const blockHistoryQuerySchema = z.object({
  pageNumber: z.coerce
    .number({ error: 'pageNumber must be a number from 1' })
    .int('pageNumber must be a number from 1')
    .min(1, 'pageNumber must be a number from 1')
    .max(100_000)
    .default(1),
  rowCount: z.coerce
    .number({ error: `rowCount must be ${MONITORING_LIMITS.blockHistoryPageSize}` })
    .refine(
      (value) => value === MONITORING_LIMITS.blockHistoryPageSize,
      `rowCount must be ${MONITORING_LIMITS.blockHistoryPageSize}`,
    )
    .default(MONITORING_LIMITS.blockHistoryPageSize),
  from: z.iso.datetime({ offset: true, error: 'from must be a date and time with a time zone (ISO 8601)' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'to must be a date and time with a time zone (ISO 8601)' }).optional(),
});

const packetValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const blockHistorySchema = z.object({
  historyItems: z.array(z.object({ receivedTimestamp: z.date(), value: packetValue, timestamp: z.date() })),
  totalCount: z.number().int(),
});
export type BlockHistory = {
  historyItems: { receivedTimestamp: string; value: string | number | boolean | null; timestamp: string }[];
  totalCount: number;
};

/** The Details form of a new block: the server takes the tenant from the subscription, the form asks for both (§5). */
export const blockFormSchema = blockCreateSchema.extend({ tenantId: guid(BLOCK_MESSAGES.tenantRequired) });

/** The time ranges the History tab's chart offers. */
export const BLOCK_HISTORY_RANGES = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;
export type BlockHistoryRange = keyof typeof BLOCK_HISTORY_RANGES;
export const BLOCK_HISTORY_RANGE_LABELS: Record<BlockHistoryRange, string> = {
  hour: 'Last hour',
  day: 'Last day',
  week: 'Last 7 days',
};

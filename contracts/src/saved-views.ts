import { z } from 'zod';
import { guid } from './fields.js';
import { SAVED_VIEW_MESSAGES, SAVED_VIEW_NAME_MAX } from './values/saved-views.js';
/** The saved views' values live beside, free of the schema library. */
export * from './values/saved-views.js';

const sortItemSchema = z.object({ field: z.string().min(1).max(100), direction: z.enum(['asc', 'desc']) });
const filterItemSchema = z.object({
  id: z.union([z.string().max(100), z.number()]).optional(),
  field: z.string().min(1).max(100),
  operator: z.string().min(1).max(50),
  value: z.unknown().optional(),
});

/**
 * What a view holds of a list: its filters, sort, column visibility and search (a page is not part
 * of it). A view without a search (saved before the search was kept, or a built-in view) leaves
 * the list's search as it is.
 */
export const savedViewStateSchema = z.object({
  filters: z.array(filterItemSchema).max(50),
  sort: z.array(sortItemSchema).max(10),
  columns: z.record(z.string().max(100), z.boolean()),
  search: z.string().max(500).optional(),
  exactMatch: z.boolean().optional(),
});
export type SavedViewState = z.infer<typeof savedViewStateSchema>;

export const savedViewInputSchema = z.object({
  tenantId: guid('Please choose a tenant.'),
  name: z
    .string({ error: SAVED_VIEW_MESSAGES.nameRequired })
    .trim()
    .min(1, SAVED_VIEW_MESSAGES.nameRequired)
    .max(SAVED_VIEW_NAME_MAX, SAVED_VIEW_MESSAGES.nameTooLong),
  /** Shared views are offered to everyone working in the tenant; only the owner changes them. */
  shared: z.boolean().default(false),
  state: savedViewStateSchema,
});
export type SavedViewInput = z.input<typeof savedViewInputSchema>;

export const savedViewSchema = z.object({
  savedViewId: z.uuid(),
  tenantId: z.uuid(),
  name: z.string(),
  shared: z.boolean(),
  /** Whether the caller owns the view (and may rename, share or delete it). */
  mine: z.boolean(),
  ownerName: z.string(),
  state: savedViewStateSchema,
  modified: z.string(),
});
export type SavedView = z.infer<typeof savedViewSchema>;

import { z } from 'zod';
import { MAX_EXPORT_COLUMNS, MAX_EXPORT_TITLE } from './constants.js';

/**
 * A list answer: `{"@odata.count": n, "value": [...], "@odata.nextLink": url}`. The count comes
 * only with `$count=true`; it is exact up to `LIST_COUNT_CAP` rows, past which it is the cap and
 * `@cfs.countIsLowerBound` is true ("1–10 of more than 10,000"). `@odata.nextLink` comes with a
 * full page: the same request with `$skiptoken` in place of `$skip`, for the page after it.
 */
export function listResponseSchema<T extends z.ZodType>(row: T) {
  return z.object({
    '@odata.count': z.number().int().optional(),
    '@cfs.countIsLowerBound': z
      .literal(true)
      .optional()
      .describe('more rows match than @odata.count: counting stopped at the cap'),
    value: z.array(row),
    '@odata.nextLink': z.string().optional().describe('the next page: this request with $skiptoken in place of $skip'),
  });
}
export interface ListResponse<T> {
  '@odata.count'?: number;
  '@cfs.countIsLowerBound'?: true;
  value: T[];
  '@odata.nextLink'?: string;
}

/** Every 4xx answer: a message and, for validation, the texts per field. */
export const errorResponseSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/**
 * The query options every list endpoint understands, for the API document. They are checked by
 * the server's list-query layer, whose messages name the problem; other parameters pass through.
 */
export const listQuerySchema = z.looseObject({
  $filter: z.string().optional().describe("e.g. contains(name,'con') and enabled eq true"),
  $orderby: z.string().optional().describe('e.g. name desc, created'),
  $top: z.string().optional().describe('page size'),
  $skip: z.string().optional().describe('rows to skip (at most MAX_SKIP; deeper pages follow @odata.nextLink)'),
  $skiptoken: z.string().optional().describe('where the page starts: the token of @odata.nextLink, in place of $skip'),
  $count: z.string().optional().describe('true: include @odata.count'),
  $expand: z.string().optional().describe('declared relations, e.g. tenant'),
  $select: z.string().optional().describe('fields to include'),
});

/** A list's export takes the list options and the columns to write. */
export const exportQuerySchema = listQuerySchema.extend({
  columns: z
    .string()
    .optional()
    .describe('JSON: [{"field":"tenant/name","title":"Tenant"}], the header titles and cells in order (at most 50)'),
});

/** The most ids one bulk call accepts; a larger selection is sent in parts. */
export const BULK_MAX_IDS = 500;
export const BULK_MESSAGES = {
  idsRequired: 'Please select at least one item.',
  tooManyIds: `At most ${BULK_MAX_IDS} items can be changed at once.`,
} as const;

/** The ids of a bulk call: at least one, at most `BULK_MAX_IDS`. */
export function bulkIdsSchema<T extends z.ZodType>(id: T) {
  return z.array(id).min(1, BULK_MESSAGES.idsRequired).max(BULK_MAX_IDS, BULK_MESSAGES.tooManyIds);
}

/**
 * A bulk call's answer: each id either succeeded or was refused with the reason, one change per
 * item, so a refused item leaves the others changed.
 */
export function bulkResultSchema<T extends z.ZodType>(id: T) {
  return z.object({
    succeeded: z.array(id),
    refused: z.array(z.object({ id, message: z.string() })),
  });
}
export interface BulkResult<Id> {
  succeeded: Id[];
  refused: { id: Id; message: string }[];
}
/**
 * The `columns` parameter of a CSV export (`GET {path}/Export()?columns=<json>`): the columns the
 * grid shows, in its order, each a field path (`title`, `tenant/name`) and the title of its header.
 *
 * @example
 *   columns=[{"field":"workUnitId","title":"ID"},{"field":"tenant/name","title":"Tenant"}]
 */
export const exportColumnsSchema = z
  .array(
    z.object({
      field: z.string().regex(/^[A-Za-z_]\w*(?:\/[A-Za-z_]\w*)*$/, 'a field path such as name or tenant/name'),
      title: z.string().trim().min(1).max(MAX_EXPORT_TITLE),
    }),
  )
  .min(1)
  .max(MAX_EXPORT_COLUMNS);

import { z } from 'zod';

/** A list answer: `{"@odata.count": n, "value": [...]}` (the count only when `$count=true`). */
export function listResponseSchema<T extends z.ZodType>(row: T) {
  return z.object({ '@odata.count': z.number().int().optional(), value: z.array(row) });
}
export interface ListResponse<T> {
  '@odata.count'?: number;
  value: T[];
}

/** Every 4xx answer: a message and, for validation, the texts per field. */
export const errorResponseSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** The query parameters every list endpoint understands. */
export const listQuerySchema = z.object({
  $filter: z.string().optional(),
  $orderby: z.string().optional(),
  $top: z.coerce.number().int().min(0).optional(),
  $skip: z.coerce.number().int().min(0).optional(),
  $count: z.enum(['true', 'false']).optional(),
  $expand: z.string().optional(),
  $select: z.string().optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

import { z } from 'zod';

/**
 * The fleet's installed software (GET /v1/software): one row per device and piece of software its
 * agent last reported (docs/features/device-agent.md "Software across the fleet"). Versions compare
 * as people read them — each run of digits as a number, so "3.0.9" < "3.0.13" < "3.0.13-1" — in
 * `$filter` (`version lt '3.0.13'`) and in `$orderby`.
 */
export const installedSoftwareRowSchema = z.object({
  /** The row's key: one device × software name. */
  deviceSoftwareId: z.number().int(),
  deviceId: z.uuid(),
  deviceName: z.string(),
  tenantId: z.uuid(),
  tenantName: z.string(),
  name: z.string(),
  version: z.string(),
  publisher: z.string().nullable(),
});
export type InstalledSoftwareRow = z.infer<typeof installedSoftwareRowSchema>;

export const SOFTWARE_PATH = '/v1/software';
export const SOFTWARE_EXPORT_FILE = 'software.csv';
export const SOFTWARE_DEFAULT_ORDER = 'name asc, version asc';

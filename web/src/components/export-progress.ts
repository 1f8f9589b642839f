import { SHELL_MESSAGES } from '@cfs/contracts/messages';

/**
 * "Exporting..." (spec 000 §2), then how much has arrived, so that a long export shows it moves.
 *
 * @example
 *   exportingLabel(0)          // "Exporting..."
 *   exportingLabel(1_468_006)  // "Exporting... 1.4 MB"
 */
export function exportingLabel(bytes: number): string {
  if (bytes <= 0) return SHELL_MESSAGES.exporting;
  const size =
    bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} kB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${SHELL_MESSAGES.exporting} ${size}`;
}

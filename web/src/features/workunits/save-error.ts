import { WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import { ApiError } from '../../lib/api-client';

/** Why a work unit could not be saved, in the words of spec 001 §8 "Work unit save". */
export interface SaveFailure {
  /** The lines the panel shows, in order. */
  lines: string[];
  /** The server's texts per field, for the form's fields. */
  fieldErrors: Record<string, string>;
  /** Someone else changed the unit: only discarding and refreshing helps. */
  conflict: boolean;
}

/**
 * Maps a failed save to the spec's texts:
 * - a message containing "is not equal to the test value" (the JSON Patch test failed) → modified by another user;
 * - 4xx with field errors → those errors, then "Please refresh the Work Unit and try again." (a unit not saved
 *   yet has nothing to refresh: only the errors);
 * - other 4xx → invalid user input; 5xx → a server error; anything else (no answer) → unknown.
 */
export function saveFailure(error: unknown, { isNew = false }: { isNew?: boolean } = {}): SaveFailure {
  const failure = (lines: string[], fieldErrors: Record<string, string> = {}, conflict = false): SaveFailure => ({
    lines,
    fieldErrors,
    conflict,
  });
  if (!(error instanceof ApiError)) return failure([WORK_UNIT_MESSAGES.unknownError]);
  if (error.body?.message.includes(WORK_UNIT_MESSAGES.testValueConflict))
    return failure([WORK_UNIT_MESSAGES.modifiedByAnother], {}, true);
  if (error.status >= 400 && error.status < 500) {
    const entries = Object.entries(error.body?.errors ?? {}).filter(([, texts]) => texts.length > 0);
    if (entries.length === 0) return failure([WORK_UNIT_MESSAGES.invalidInput]);
    const fieldErrors = Object.fromEntries(entries.map(([field, texts]) => [field, texts.join(' ')]));
    const texts = [...new Set(entries.flatMap(([, fieldTexts]) => fieldTexts))];
    return failure(isNew ? texts : [...texts, WORK_UNIT_MESSAGES.refreshAndRetry], fieldErrors);
  }
  if (error.status >= 500 && error.status < 600) return failure([WORK_UNIT_MESSAGES.serverError]);
  return failure([WORK_UNIT_MESSAGES.unknownError]);
}

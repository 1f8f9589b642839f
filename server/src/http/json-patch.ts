import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { ConflictError, type HttpError } from './errors.js';

const { applyPatch, JsonPatchError } = fastJsonPatch;

/**
 * The JSON Pointers an operation names: its `path` and, for `move` and `copy`, its `from`. A
 * route's list of patchable fields holds for both: a `copy` from an id or from `/constructor`
 * reads what the caller may not name, and a `move` from one also removes it.
 */
export function pointersOf(operation: Operation): string[] {
  return 'from' in operation && typeof operation.from === 'string'
    ? [operation.path, operation.from]
    : [operation.path];
}

/**
 * Applies a JSON Patch (RFC 6902) to a copy of `document` and answers the patched copy. A `test`
 * that no longer holds is a conflict (409, "The value at … is not equal to the test value", spec
 * 001 §8); any other failure is the route's own 400 (`invalid`). Writes into prototypes
 * (`__proto__`, `constructor/prototype`) fail too.
 *
 * @example
 *   const patched = applyJsonPatch(before, operations, (reason) => new BadRequestError(reason));
 */
export function applyJsonPatch(
  document: object,
  operations: readonly Operation[],
  invalid: (reason: string) => HttpError,
): unknown {
  try {
    return applyPatch(structuredClone(document), structuredClone(operations) as Operation[], true, false).newDocument;
  } catch (error) {
    if (error instanceof JsonPatchError && error.name === 'TEST_OPERATION_FAILED') {
      const path = error.operation?.path ?? operations[error.index ?? 0]?.path ?? '/';
      throw new ConflictError(`The value at "${path}" is not equal to the test value`);
    }
    throw invalid(`The patch cannot be applied: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
}

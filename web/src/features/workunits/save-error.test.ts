import { describe, expect, it } from 'vitest';
import { WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import { ApiError } from '../../lib/api-client';
import { saveFailure } from './save-error';

describe('saveFailure (spec 001 §8 "Work unit save")', () => {
  it('shows "modified by another user" for a failed JSON Patch test', () => {
    const failure = saveFailure(new ApiError(409, { message: 'The value at "/title" is not equal to the test value' }));
    expect(failure.lines).toEqual([
      'This Work Unit was modified by another user. Please discard your changes without saving and refresh it.',
    ]);
    expect(failure.conflict).toBe(true);
  });

  it('recognises the conflict text whatever the status', () => {
    expect(
      saveFailure(new ApiError(400, { message: 'The value at "/stateId" is not equal to the test value' })).conflict,
    ).toBe(true);
  });

  it('shows the server errors of a 4xx, then "Please refresh the Work Unit and try again."', () => {
    const failure = saveFailure(
      new ApiError(400, {
        message: 'Validation failed',
        errors: { title: ['Please enter the title'], approver1: ['Please choose approver 1.'] },
      }),
    );
    expect(failure.lines).toEqual([
      'Please enter the title',
      'Please choose approver 1.',
      'Please refresh the Work Unit and try again.',
    ]);
    expect(failure.fieldErrors).toEqual({ title: 'Please enter the title', approver1: 'Please choose approver 1.' });
    expect(failure.conflict).toBe(false);
  });

  it('shows only what is wrong for a unit not saved yet, with nothing to refresh', () => {
    const failure = saveFailure(
      new ApiError(400, { message: 'Validation failed', errors: { approver1: [WORK_UNIT_MESSAGES.selfApprover] } }),
      { isNew: true },
    );
    expect(failure.lines).toEqual([WORK_UNIT_MESSAGES.selfApprover]);
    expect(failure.fieldErrors).toEqual({ approver1: WORK_UNIT_MESSAGES.selfApprover });
  });

  it('shows "Invalid user input…" for a 4xx without field errors', () => {
    expect(saveFailure(new ApiError(404, { message: 'Not found' })).lines).toEqual([WORK_UNIT_MESSAGES.invalidInput]);
    expect(saveFailure(new ApiError(400, { message: 'Bad', errors: {} })).lines).toEqual([
      'Invalid user input was sent to the API. Please verify your input and try again.',
    ]);
  });

  it('shows "A server error prevented saving…" for a 5xx', () => {
    expect(saveFailure(new ApiError(503, undefined)).lines).toEqual([
      'A server error prevented saving this Work Unit. These errors are often temporary. Please retry saving in just a moment.',
    ]);
  });

  it('shows "An unknown error has occurred…" otherwise', () => {
    expect(saveFailure(new TypeError('Failed to fetch')).lines).toEqual([
      'An unknown error has occurred. Please retry saving in just a moment.',
    ]);
    expect(saveFailure(new ApiError(302, undefined)).lines).toEqual([WORK_UNIT_MESSAGES.unknownError]);
  });
});

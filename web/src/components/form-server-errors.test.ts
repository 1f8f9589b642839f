import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-client';
import { placeServerErrors, serverFieldErrors } from './form-server-errors';

describe('server field texts (400 { message, errors })', () => {
  it('reads one entry per field, its texts joined', () => {
    const error = new ApiError(400, {
      message: 'One or more validation errors occurred.',
      errors: { name: ['Please enter a name.'], intakeWizardSchema: ['a', 'b'], empty: [] },
    });
    expect(serverFieldErrors(error)).toEqual([
      { field: 'name', message: 'Please enter a name.' },
      { field: 'intakeWizardSchema', message: 'a b' },
    ]);
  });

  it('reads nothing from other failures', () => {
    expect(serverFieldErrors(new ApiError(500, { message: 'boom', errors: { name: ['x'] } }))).toEqual([]);
    expect(serverFieldErrors(new ApiError(400, { message: 'bad' }))).toEqual([]);
    expect(serverFieldErrors(new Error('offline'))).toEqual([]);
  });

  it('places texts on the fields the path names and joins the rest for the form as a whole', () => {
    const placed = placeServerErrors<{ name: string }>(
      [
        { field: 'name', message: 'Please enter a name.' },
        { field: 'tenantId', message: 'Unknown tenant.' },
        { field: 'other', message: 'Also wrong.' },
      ],
      (field) => (field === 'name' ? 'name' : undefined),
    );
    expect(placed).toEqual({
      fields: [{ path: 'name', message: 'Please enter a name.' }],
      root: 'Unknown tenant. Also wrong.',
    });
  });
});

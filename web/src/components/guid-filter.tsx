import { useState } from 'react';
import TextField from '@mui/material/TextField';
import type { GridFilterInputValueProps, GridFilterOperator } from '@mui/x-data-grid';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { isGuid } from '@cfs/contracts/values/odata';

/**
 * Filter input for a GUID column: what the user types is kept (and written to the address)
 * but an invalid GUID shows "Please enter a valid GUID." and is not sent (spec 002 §5,
 * "GUID filters in grids"; `filterClause` leaves it out).
 */
export function GuidFilterInput({ item, applyValue, focusElementRef, disabled }: GridFilterInputValueProps) {
  const [text, setText] = useState(typeof item.value === 'string' ? item.value : '');
  const invalid = text.trim() !== '' && !isGuid(text.trim());
  return (
    <TextField
      label="Value"
      placeholder="Filter value"
      variant="outlined"
      size="small"
      value={text}
      disabled={disabled}
      inputRef={focusElementRef}
      error={invalid}
      helperText={invalid ? SHELL_MESSAGES.invalidGuid : undefined}
      onChange={(event) => {
        setText(event.target.value);
        applyValue({ ...item, value: event.target.value.trim() });
      }}
    />
  );
}

// The grid filters on the server (filterMode "server"): no client-side filter function.
const serverOnly: GridFilterOperator['getApplyFilterFn'] = () => null;

/** Whether a filter operator is one of a GUID column's (its value typed into `GuidFilterInput`). */
export function isGuidFilterOperator(operator: GridFilterOperator): boolean {
  return operator.InputComponent === GuidFilterInput;
}

/**
 * The filter operators of a GUID column. A column using them is read as a GUID field by
 * `ResourceGrid` (values sent bare, never quoted).
 *
 * @example
 *   { field: 'deviceId', headerName: 'Device ID', filterOperators: guidFilterOperators }
 */
export const guidFilterOperators: readonly GridFilterOperator[] = [
  { value: 'equals', getApplyFilterFn: serverOnly, InputComponent: GuidFilterInput },
  { value: 'doesNotEqual', getApplyFilterFn: serverOnly, InputComponent: GuidFilterInput },
  { value: 'isEmpty', getApplyFilterFn: serverOnly, requiresFilterValue: false },
  { value: 'isNotEmpty', getApplyFilterFn: serverOnly, requiresFilterValue: false },
];

import Box from '@mui/material/Box';
import { formatDateTime, formatRelative, type DateInput } from '../lib/dates';
import { useNow } from '../lib/use-now';

/**
 * A date in a list, in the spec's format, with how long ago it was beside it ("2 h ago"),
 * renewed every minute. `text` replaces the formatted date (a grid column's own formatting).
 *
 * @example
 *   <TableCell><DateWithAge value={row.created} /></TableCell>
 */
export function DateWithAge({ value, text }: { value: DateInput; text?: string }) {
  const now = useNow();
  const age = formatRelative(value, now);
  return (
    <>
      {text ?? formatDateTime(value)}
      {age && (
        <>
          {' '}
          <Box component="span" sx={{ color: 'text.secondary', fontSize: '0.75rem' }}>
            {age}
          </Box>
        </>
      )}
    </>
  );
}

import Box from '@mui/material/Box';
import { formatDateTime, formatRelative, type DateInput } from '../lib/dates';
import { useNow } from '../lib/use-now';

/**
 * A date in a list, in the spec's format, with how long ago it was beside it ("2 h ago"),
 * renewed every minute. `text` replaces the formatted date (a grid column's own formatting);
 * `stacked` puts the age under the date, for a narrow column.
 *
 * @example
 *   <TableCell><DateWithAge value={row.created} /></TableCell>
 */
export function DateWithAge({ value, text, stacked = false }: { value: DateInput; text?: string; stacked?: boolean }) {
  const now = useNow();
  const age = formatRelative(value, now);
  if (stacked)
    return (
      <Box
        component="span"
        sx={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', height: '100%', lineHeight: 1.3 }}
      >
        <span>{text ?? formatDateTime(value)}</span>
        {age && (
          <Box component="span" sx={{ color: 'text.secondary', fontSize: '0.75rem' }}>
            {age}
          </Box>
        )}
      </Box>
    );
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

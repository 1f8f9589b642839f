import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import { propertiesView } from './work-unit-display';

/** The Properties tab (spec 001 §2): the unit's additional key/values. */
export function PropertiesTab({ properties }: { properties: string | null | undefined }) {
  const view = propertiesView(properties);
  if (view.kind === 'none') return <Typography color="text.secondary">{WORK_UNIT_MESSAGES.noProperties}</Typography>;
  if (view.kind === 'empty')
    return <Typography color="text.secondary">{WORK_UNIT_MESSAGES.noAdditionalProperties}</Typography>;
  return (
    <Table size="small" aria-label="Properties">
      <TableHead>
        <TableRow>
          <TableCell>Key</TableCell>
          <TableCell>Value</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {view.entries.map((entry) => (
          <TableRow key={entry.key}>
            <TableCell sx={{ fontWeight: 500, verticalAlign: 'top' }}>{entry.key}</TableCell>
            <TableCell sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{entry.value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReportModel } from './report-model';

/** A report's data tables: its values, then its activities (spec 001 §2). */
export function ReportView({ report }: { report: ReportModel }) {
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label="Report">
          <TableBody>
            {report.rows.map((row) => (
              <TableRow key={row.label}>
                <TableCell component="th" scope="row" sx={{ fontWeight: 600, width: 220, verticalAlign: 'top' }}>
                  {row.label}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{row.value}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="subtitle1" sx={{ mt: 3, mb: 1 }}>
        Activities
      </Typography>
      {report.activities.length === 0 ? (
        <Typography color="text.secondary">No activities.</Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-label="Activities">
            <TableHead>
              <TableRow>
                <TableCell>Step</TableCell>
                <TableCell>Details</TableCell>
                {report.internal && <TableCell>Customer Facing</TableCell>}
                <TableCell>Completed</TableCell>
                <TableCell>Created</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.activities.map((activity, index) => (
                <TableRow key={index}>
                  <TableCell>{activity.step}</TableCell>
                  <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{activity.details}</TableCell>
                  {report.internal && <TableCell>{activity.customerFacing}</TableCell>}
                  <TableCell>{activity.completed}</TableCell>
                  <TableCell>{activity.created}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </>
  );
}

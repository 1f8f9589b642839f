import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import type { UseFormReturn } from 'react-hook-form';
import {
  MATCH_OUTCOME_LABELS,
  RULE_TEST_WINDOW_LABELS,
  type RuleTestResult,
  type RuleTestWindow,
  type RuleValues,
} from '@cfs/contracts/rules';
import { formatDateTime, formatSpan } from '../../lib/dates';
import { useTestRule } from './api';
import { toRuleInput, type RuleFormValues } from './rule-form-values';

const WINDOWS = Object.entries(RULE_TEST_WINDOW_LABELS) as [RuleTestWindow, string][];

/**
 * Test: runs the rule as the form holds it (unsaved) over a past window (POST v1/rules/test) and
 * shows what it would have matched and which actions would have run, without doing either.
 */
export function RuleTestPanel({ form }: { form: UseFormReturn<RuleFormValues, unknown, RuleValues> }) {
  const [window, setWindow] = useState<RuleTestWindow>('day');
  const test = useTestRule();
  const run = async () => {
    // The form's own checks first: the messages land on its fields, as for Save.
    if (!(await form.trigger())) return;
    test.mutate({ rule: toRuleInput(form.getValues()), window });
  };
  return (
    <Paper variant="outlined" component="section" aria-label="Test Rule" sx={{ p: 2, mt: 2 }}>
      <Typography variant="subtitle1">Test Rule</Typography>
      <Typography variant="body2" color="text.secondary">
        Runs the rule as it stands in the form over past data: nothing is matched and no action runs.
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 1 }}>
        <TextField
          select
          size="small"
          label="Window"
          value={window}
          onChange={(event) => setWindow(event.target.value as RuleTestWindow)}
          sx={{ width: 180 }}
        >
          {WINDOWS.map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" startIcon={<PlayArrowIcon />} disabled={test.isPending} onClick={() => void run()}>
          {test.isPending ? 'Running...' : 'Run Test'}
        </Button>
      </Stack>
      {test.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {test.error.message}
        </Alert>
      )}
      {test.data && <RuleTestOutcome result={test.data} />}
    </Paper>
  );
}

function RuleTestOutcome({ result }: { result: RuleTestResult }) {
  return (
    <>
      <Typography variant="body2" sx={{ mt: 2 }}>
        {`${result.packetsExamined.toLocaleString()} ${result.packetsExamined === 1 ? 'packet' : 'packets'} examined from ${formatDateTime(result.from)} to ${formatDateTime(result.to)} in ${Math.round(result.elapsedMs).toLocaleString()} ms.`}
      </Typography>
      {result.truncated && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          The window held more packets than a test reads: these figures cover the newest ones.
        </Alert>
      )}
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Subjects
      </Typography>
      {result.subjects.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          The rule would not have matched.
        </Typography>
      ) : (
        <Table size="small" aria-label="Subjects">
          <TableHead>
            <TableRow>
              <TableCell>Subject</TableCell>
              <TableCell>First Match</TableCell>
              <TableCell>Last Match</TableCell>
              <TableCell align="right">Matches</TableCell>
              <TableCell>Closed</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {result.subjects.map((subject) => (
              <TableRow key={subject.subjectId}>
                <TableCell>{subject.label ? `${subject.label} (${subject.subjectId})` : subject.subjectId}</TableCell>
                <TableCell>{formatDateTime(subject.firstMatch)}</TableCell>
                <TableCell>{formatDateTime(subject.lastMatch)}</TableCell>
                <TableCell align="right">{subject.matchCount}</TableCell>
                <TableCell>
                  {subject.expirations.length === 0
                    ? 'Still open'
                    : subject.expirations
                        .map((expiry, index) => {
                          const outcome = subject.outcomes[index];
                          return `${formatDateTime(expiry)}${outcome ? ` (${MATCH_OUTCOME_LABELS[outcome]})` : ''}`;
                        })
                        .join(', ')}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        Actions that would have run
      </Typography>
      {result.actions.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          None.
        </Typography>
      ) : (
        <Table size="small" aria-label="Actions">
          <TableHead>
            <TableRow>
              <TableCell>Action</TableCell>
              <TableCell>When</TableCell>
              <TableCell align="right">Runs</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {result.actions.map((action) => (
              <TableRow key={`${action.phase}-${action.actionDefinitionId}`}>
                <TableCell>{action.name}</TableCell>
                <TableCell>{action.phase === 'match' ? 'On match' : 'On expiration'}</TableCell>
                <TableCell align="right">{action.runs}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {result.notifications && <NotificationsLine notifications={result.notifications} />}
    </>
  );
}

const GROUP_WORDS = { rule: 'by rule', location: 'by location', subscription: 'by subscription' } as const;

/** What the tenant's notification policy would have made of the matches (its Send Email and HTTP actions). */
function NotificationsLine({ notifications: n }: { notifications: NonNullable<RuleTestResult['notifications']> }) {
  const plural = (count: number, one: string, many = `${one}s`) =>
    `${count.toLocaleString()} ${count === 1 ? one : many}`;
  const grouping = n.groupBy
    ? `grouped ${GROUP_WORDS[n.groupBy]}, each group waiting ${formatSpan(n.groupWait)}`
    : 'each on its own';
  const repeating = n.repeatEvery
    ? `, and ${plural(n.repeats, 'repeat')} (every ${formatSpan(n.repeatEvery)}, none acknowledged)`
    : '';
  return (
    <Typography variant="body2" sx={{ mt: 1 }} aria-label="Notifications">
      {`Notifications: ${plural(n.matches, 'match', 'matches')} would have sent ${plural(n.sent, 'notification')} (${grouping})${repeating}.`}
    </Typography>
  );
}

import { Fragment, useMemo, useState } from 'react';
import { keepPreviousData, useIsFetching, useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import { MONITORING_POLLING_MS, operatorLabel, ruleTypeName } from '@cfs/contracts/monitoring';
import { RULE_MATCH_LIST, isRuleMatchActive, type RuleMatchRow } from '@cfs/contracts/rule-matches';
import { MATCH_OUTCOME_LABELS } from '@cfs/contracts/rules';
import { RULE_MESSAGES } from '@cfs/contracts/rules';
import { ACTION_RESULT_LABELS, type ActionHistoryRow } from '@cfs/contracts/action-histories';
import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { usePermissions } from '../auth/session-data';
import type { JsonOf } from '../lib/json-types';
import { fetchList, listQueryKey } from '../lib/list-api';
import { useLiveQueries } from '../lib/live';
import type { ODataParams } from '../lib/list-query';
import { useNow } from '../lib/use-now';
import { formatDateTime } from '../lib/dates';
import { tenantsLookupQuery, workUnitTypesLookupQuery } from '../lib/lookups';
import { reasonNamesWorkUnitTypes, reasonValueText, type ReasonNames } from './match-reason-text';
import { DateWithAge } from './date-with-age';
import { RuleMatchActions } from './rule-match-actions';

export const RULE_MATCHES_PATH = '/v1/rulematches';

/** Open: not closed (on recovery it closes before its expiry) and not yet expired. */
const isOpenMatch = (match: RuleMatchListRow, now: number) =>
  !match.completionProcessed && isRuleMatchActive(match.expires, now);
const ACTION_HISTORIES_PATH = '/v1/actionHistories';
export type RuleMatchListRow = JsonOf<RuleMatchRow>;

export interface RuleMatchesTableProps {
  /** OData filter of the matches shown, e.g. ``subjectId eq ${quote(blockId)}`` or ``ruleId eq ${guidLiteral(ruleId)}``. */
  filter: string;
  /** Rows a page: 50 by default, the rule drawer's 100 (spec 002 §9). */
  pageSize?: number;
  /** `$orderby`: newest first by default, the rule drawer's `expires desc`. */
  orderBy?: string;
  /** Hides the Rule column where every row has the same rule (the rule drawer). */
  hideRule?: boolean;
  /** Hides the Subject column where every row has the same subject (a block's, a packet's tab). */
  hideSubject?: boolean;
  /** Polling pauses while false, e.g. while an action-history request is open (spec 002 §4). */
  refresh?: boolean;
  /** The table's accessible name. */
  label?: string;
}

/** The page of matches, refreshed every 30 s (spec 002 §9), with each match's rule. */
export function useRuleMatches(
  {
    filter,
    pageSize = RULE_MATCH_LIST.defaultPageSize,
    orderBy = RULE_MATCH_LIST.defaultOrderBy,
    refresh = true,
  }: Omit<RuleMatchesTableProps, 'hideRule' | 'hideSubject' | 'label'>,
  page: number,
  enabled = true,
) {
  const query: ODataParams = {
    $filter: filter,
    $orderby: orderBy,
    $top: String(pageSize),
    $skip: String(page * pageSize),
    $count: 'true',
    $expand: 'rule',
  };
  // Paused while a match's action history is being read (spec 001 §9: paused while an action-history request is open).
  const readingActions = useIsFetching({ queryKey: listQueryKey(ACTION_HISTORIES_PATH) }) > 0;
  const live = useLiveQueries(refresh && enabled ? 'ruleMatches' : undefined, [listQueryKey(RULE_MATCHES_PATH)]);
  return useQuery({
    queryKey: listQueryKey(RULE_MATCHES_PATH, query),
    queryFn: ({ signal }) => fetchList<RuleMatchListRow>(RULE_MATCHES_PATH, query, signal),
    refetchInterval: refresh && !readingActions && !live ? MONITORING_POLLING_MS.ruleMatches : false,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Why a match fired: each condition that held and the value it saw. */
function MatchReason({ match }: { match: RuleMatchListRow }) {
  const reason = match.reason;
  const names = useReasonNames(match);
  if (!reason || reason.conditions.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No reason was recorded for this match.
      </Typography>
    );
  }
  return (
    <Box>
      <Typography variant="subtitle2" component="h4">
        Why it fired
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {reason.conditions.map((condition) => (
          <li key={condition.index}>
            <Typography variant="body2">
              {condition.leftOperand} {operatorLabel(condition.operator)}
              {condition.rightOperand !== null
                ? ` ${reasonValueText(condition.leftOperand, condition.rightOperand, names)}`
                : ''}
              {' — seen '}
              <Box component="strong">
                {condition.seen === null ? 'nothing' : reasonValueText(condition.leftOperand, condition.seen, names)}
              </Box>
            </Typography>
          </li>
        ))}
      </Box>
      {reason.timestamp && (
        <Typography variant="caption" color="text.secondary">
          Last matching packet: <DateWithAge value={reason.timestamp} />
        </Typography>
      )}
    </Box>
  );
}

/** The names of the ids a match's reason holds: the caller's tenants, the work unit types when it names some, its subject's block name. */
function useReasonNames(match: RuleMatchListRow): ReasonNames {
  const tenants = useQuery(tenantsLookupQuery);
  const types = useQuery({
    ...workUnitTypesLookupQuery,
    enabled: reasonNamesWorkUnitTypes(match.reason?.conditions.map((condition) => condition.leftOperand) ?? []),
  });
  // Kept while the lookups are the same: an administrator's tenants are many, and the row renders on every poll.
  const tenantNames = useMemo(
    () => new Map((tenants.data ?? []).map((tenant) => [tenant.tenantId, tenant.name])),
    [tenants.data],
  );
  const typeNames = useMemo(
    () => new Map((types.data ?? []).map((type) => [String(type.workUnitTypeId), type.name])),
    [types.data],
  );
  return { tenants: tenantNames, workUnitTypes: typeNames, subject: { id: match.subjectId, label: match.label } };
}

/** What the match's actions did (spec 002 §3 ActionHistory): run, failed, or suppressed in maintenance. */
function MatchActions({ ruleMatchId }: { ruleMatchId: string }) {
  const allowed = usePermissions().has('ActionDefinitions', 'view');
  const query: ODataParams = {
    $filter: `ruleMatchId eq ${ruleMatchId}`,
    $orderby: 'actionProcessed desc',
    $top: '50',
    $expand: 'actionDefinition',
  };
  const runs = useQuery({
    queryKey: listQueryKey(ACTION_HISTORIES_PATH, query),
    queryFn: ({ signal }) => fetchList<JsonOf<ActionHistoryRow>>(ACTION_HISTORIES_PATH, query, signal),
    enabled: allowed,
  });
  if (!allowed) return null;
  const rows = runs.data?.rows ?? [];
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="subtitle2" component="h4">
        Actions
      </Typography>
      {runs.isError && (
        <Typography variant="body2" color="error">
          The actions could not be loaded.
        </Typography>
      )}
      {runs.data && rows.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          No action has run for this match yet.
        </Typography>
      )}
      <Box component="ul" sx={{ m: 0, pl: 2.5 }} aria-label="Actions run">
        {rows.map((run) => (
          <li key={run.actionHistoryId}>
            <Typography variant="body2">
              <Box component="strong">{run.actionDefinition?.name ?? run.actionDefinitionId}</Box>
              {' — '}
              <Box
                component="span"
                sx={{
                  color:
                    run.resultStatusId === ACTION_RESULT_STATUSES.Failure
                      ? 'error.main'
                      : run.resultStatusId === ACTION_RESULT_STATUSES.Suppressed
                        ? 'warning.main'
                        : undefined,
                }}
              >
                {ACTION_RESULT_LABELS[run.resultStatusId] ?? run.resultStatusId}
              </Box>
              {run.resultDetail ? `: ${run.resultDetail}` : ''} <DateWithAge value={run.actionProcessed} />
            </Typography>
          </li>
        ))}
      </Box>
    </Box>
  );
}

function MatchRow({
  match,
  now,
  hideRule,
  hideSubject,
  choice,
}: {
  match: RuleMatchListRow;
  now: number;
  hideRule: boolean;
  hideSubject: boolean;
  /** The row's checkbox, for those who may acknowledge and silence. */
  choice: { chosen: boolean; onChange: (on: boolean) => void } | undefined;
}) {
  const [open, setOpen] = useState(false);
  const active = isOpenMatch(match, now);
  const silencedUntil =
    match.silencedUntil && new Date(match.silencedUntil).getTime() > now ? match.silencedUntil : null;
  const columns = 6 + (hideRule ? 0 : 1) + (hideSubject ? 0 : 1) + (choice ? 1 : 0);
  return (
    <Fragment>
      <TableRow hover sx={{ '& > td': { borderBottom: open ? 'unset' : undefined } }} data-testid="rule-match-row">
        {choice && (
          <TableCell padding="checkbox">
            {active && (
              <Checkbox
                size="small"
                checked={choice.chosen}
                onChange={(event) => choice.onChange(event.target.checked)}
                slotProps={{ input: { 'aria-label': `Choose the match of ${match.label ?? match.subjectId}` } }}
              />
            )}
          </TableCell>
        )}
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-label={open ? 'Hide why it fired' : 'Why it fired'}
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? <KeyboardArrowDownIcon fontSize="small" /> : <KeyboardArrowRightIcon fontSize="small" />}
          </IconButton>
        </TableCell>
        <TableCell>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
            <Chip
              size="small"
              label={
                active
                  ? match.pending
                    ? 'Pending'
                    : 'Active'
                  : match.outcome
                    ? MATCH_OUTCOME_LABELS[match.outcome]
                    : 'Inactive'
              }
              color={active ? (match.pending ? 'info' : 'success') : 'default'}
              variant={active && !match.pending ? 'filled' : 'outlined'}
              title={
                match.pending
                  ? "Its conditions hold, not yet for its rule's pending period: nothing has run."
                  : undefined
              }
            />
            {silencedUntil ? (
              <Chip
                size="small"
                label={`Silenced until ${formatDateTime(silencedUntil)}`}
                color="warning"
                variant="outlined"
              />
            ) : (
              match.inMaintenance && <Chip size="small" label="In Maintenance" color="warning" variant="outlined" />
            )}
            {active && match.acknowledged && (
              <Tooltip
                title={`${match.acknowledgedBy ?? ''}, ${formatDateTime(match.acknowledged)}${match.acknowledgement ? `: ${match.acknowledgement}` : ''}`}
              >
                <Chip
                  size="small"
                  label={`Acknowledged by ${match.acknowledgedBy ?? ''}`}
                  color="info"
                  variant="outlined"
                />
              </Tooltip>
            )}
          </Box>
        </TableCell>
        {!hideRule && (
          <TableCell sx={{ minWidth: '10rem' }}>
            {match.rule?.name ?? match.ruleId}
            {match.rule && (
              <Typography variant="caption" color="text.secondary" component="div">
                {ruleTypeName(match.rule.ruleTypeId)}
              </Typography>
            )}
          </TableCell>
        )}
        {!hideSubject && (
          <TableCell sx={{ maxWidth: '14rem' }}>
            {match.label ?? match.subjectId}
            {match.label && (
              <Typography variant="caption" color="text.secondary" component="div" noWrap title={match.subjectId}>
                {match.subjectId}
              </Typography>
            )}
          </TableCell>
        )}
        <TableCell align="right">{match.matchCount}</TableCell>
        <TableCell>
          <DateWithAge value={match.firstMatch} />
        </TableCell>
        <TableCell>
          <DateWithAge value={match.lastMatch} />
        </TableCell>
        <TableCell>
          <DateWithAge value={match.expires} />
        </TableCell>
      </TableRow>
      {open && (
        <TableRow>
          <TableCell />
          <TableCell colSpan={columns - 1} sx={{ pt: 0 }}>
            <MatchReason match={match} />
            <MatchActions ruleMatchId={match.ruleMatchId} />
          </TableCell>
        </TableRow>
      )}
    </Fragment>
  );
}

/**
 * Rule matches (spec 002 §3 RuleMatch) of one filter: a block's or a packet's entity
 * (`subjectId`), a work unit (`subjectId`), or a rule (`ruleId`): its status first (Active while
 * open, or how it closed; In Maintenance, silenced, acknowledged), so that a narrow drawer shows it
 * without scrolling, then rule, subject, how often, first and last match and when it ends, and
 * under each row why it fired. 'No Rule Matches Found.' when there are none; refreshed every 30 s.
 * Needs the Rules view permission, since rule matches are part of rules.
 *
 * @example
 *   <RuleMatchesTable filter={`subjectId eq ${quote(blockId)}`} />
 *   <RuleMatchesTable filter={`ruleId eq ${guidLiteral(ruleId)}`} pageSize={100} orderBy="expires desc" hideRule />
 */
export function RuleMatchesTable(props: RuleMatchesTableProps) {
  const {
    hideRule = false,
    hideSubject = false,
    label = 'Rule matches',
    pageSize = RULE_MATCH_LIST.defaultPageSize,
  } = props;
  const permissions = usePermissions();
  const allowed = permissions.has('Rules', 'view');
  // Acknowledge and Silence: for those who may change rules, on the open matches chosen.
  const canAct = permissions.has('Rules', 'edit');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [page, setPage] = useState(0);
  const matches = useRuleMatches(props, page, allowed);
  const now = useNow();
  if (!allowed)
    return <Typography color="text.secondary">Rule matches are shown to users who may view rules.</Typography>;
  if (matches.isError) return <Alert severity="error">The rule matches could not be loaded.</Alert>;
  const rows = matches.data?.rows ?? [];
  const open = rows.filter((match) => isOpenMatch(match, now));
  const selected = open.filter((match) => chosen.has(match.ruleMatchId)).map((match) => match.ruleMatchId);
  const choose = (ids: readonly string[], on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  return (
    <Box>
      {canAct && open.length > 0 && <RuleMatchActions selected={selected} onDone={() => setChosen(new Set())} />}
      {matches.isFetching && <LinearProgress />}
      {matches.data && rows.length === 0 && (
        <Typography color="text.secondary">{RULE_MESSAGES.noRuleMatches}</Typography>
      )}
      {rows.length > 0 && (
        <>
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={label}>
              <TableHead>
                <TableRow>
                  {canAct && (
                    <TableCell padding="checkbox">
                      <Checkbox
                        size="small"
                        disabled={open.length === 0}
                        checked={open.length > 0 && selected.length === open.length}
                        indeterminate={selected.length > 0 && selected.length < open.length}
                        onChange={(event) =>
                          choose(
                            open.map((match) => match.ruleMatchId),
                            event.target.checked,
                          )
                        }
                        slotProps={{ input: { 'aria-label': 'Choose every open match' } }}
                      />
                    </TableCell>
                  )}
                  <TableCell padding="checkbox" />
                  <TableCell>Status</TableCell>
                  {!hideRule && <TableCell>Rule</TableCell>}
                  {!hideSubject && <TableCell>Subject</TableCell>}
                  <TableCell align="right">Matches</TableCell>
                  <TableCell>First Match</TableCell>
                  <TableCell>Last Match</TableCell>
                  <TableCell title="When an open match closes at the latest (each packet pushes it on where the rule slides or closes on recovery); when a closed match ended">
                    Ends
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((match) => (
                  <MatchRow
                    key={match.ruleMatchId}
                    match={match}
                    now={now}
                    hideRule={hideRule}
                    hideSubject={hideSubject}
                    choice={
                      canAct
                        ? {
                            chosen: chosen.has(match.ruleMatchId),
                            onChange: (on) => choose([match.ruleMatchId], on),
                          }
                        : undefined
                    }
                  />
                ))}
              </TableBody>
            </Table>
          </Box>
          {(matches.data?.total ?? 0) > pageSize && (
            <TablePagination
              component="div"
              count={matches.data?.total ?? 0}
              page={page}
              onPageChange={(_event, next) => setPage(next)}
              rowsPerPage={pageSize}
              rowsPerPageOptions={[pageSize]}
            />
          )}
        </>
      )}
    </Box>
  );
}

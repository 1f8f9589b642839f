import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@cfs/contracts/constants';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import type { WorkUnit } from '@cfs/contracts/work-units';
import { STATE_LABELS } from '@cfs/contracts/values/work-units';
import { MONITORING_LIMITS } from '@cfs/contracts/monitoring';
import { RULE_MATCH_LIST } from '@cfs/contracts/rule-matches';
import { CellLink } from '../../components/cell-link';
import { RuleMatchesTable } from '../../components/rule-matches-table';
import { quote } from '@cfs/contracts/values/odata';
import type { WorkUnitSummary } from './api';
import { useRelatedTab } from './use-related-tab';
import { noRelatedText, relationTypeLabel, WORK_UNIT_RELATION } from './work-unit-display';

export interface RelatedTabProps {
  unit: WorkUnit;
  onUpdated: (unit: WorkUnit) => void;
  /** Opens a related work unit in the panel, in place of this one (the panel asks about unsaved changes first). */
  onOpenWorkUnit: (workUnitId: number) => void;
  /** The address of the page with a related unit open: its title is a link (Ctrl, ⌘ or middle click opens a new tab). */
  workUnitHref: (workUnitId: number) => string;
}

/** The Related tab (spec 001 §2): relations per type, 10 rows a page, at most 100 per type, then the work unit's rule matches (100, expires descending, spec 001 §9). */
export function RelatedTab({ unit, onUpdated, onOpenWorkUnit, workUnitHref }: RelatedTabProps) {
  const related = useRelatedTab(unit, onUpdated);
  return (
    <Box>
      <Autocomplete<WorkUnitSummary, false, false, false>
        options={related.candidates}
        value={null}
        inputValue={related.searchText}
        onInputChange={(_event, text, reason) => {
          if (reason !== 'reset') related.setSearchText(text);
        }}
        onChange={(_event, chosen) => {
          if (chosen) related.addWorkUnit(chosen);
          related.setSearchText('');
        }}
        filterOptions={(options) => options}
        getOptionLabel={(option) => `#${option.workUnitId} ${option.title}`}
        getOptionKey={(option) => option.workUnitId}
        loading={related.searching}
        disabled={related.busy}
        noOptionsText={related.searchText.trim() ? 'No work units found' : 'Type a title or an ID'}
        renderInput={(params) => (
          <TextField {...params} label="Relate a work unit" placeholder="Search by title or ID" margin="normal" />
        )}
      />
      {related.groups.map((group) => (
        <Box
          key={group.type}
          component="section"
          aria-label={`Related ${relationTypeLabel(group.type)}s`}
          sx={{ mt: 2 }}
        >
          <Typography variant="subtitle1" component="h3">
            {relationTypeLabel(group.type)}s ({group.total})
          </Typography>
          {group.referenceIds.length === 0 ? (
            <Typography color="text.secondary">{noRelatedText(group.type)}</Typography>
          ) : (
            <RelationTable
              type={group.type}
              referenceIds={group.referenceIds}
              summaryOf={related.summaryOf}
              busy={related.busy}
              onOpen={onOpenWorkUnit}
              hrefOf={workUnitHref}
              onRemove={(referenceId) => related.remove({ referenceId, referenceType: group.type })}
            />
          )}
        </Box>
      ))}
      {/* Spec 001: the rule matches related to the work unit (its id is their subject), Active or Inactive. */}
      <Box component="section" aria-label="Related rule matches" sx={{ mt: 2 }}>
        <Typography variant="subtitle1" component="h3">
          Rule Matches
        </Typography>
        <RuleMatchesTable
          filter={`subjectId eq ${quote(String(unit.workUnitId))}`}
          pageSize={MONITORING_LIMITS.ruleMatchesPageSize}
          orderBy={RULE_MATCH_LIST.drawerOrderBy}
          label="Related rule matches"
        />
      </Box>
    </Box>
  );
}

interface RelationTableProps {
  type: string;
  referenceIds: string[];
  summaryOf: (referenceId: string) => WorkUnitSummary | undefined;
  busy: boolean;
  onOpen: (workUnitId: number) => void;
  hrefOf: (workUnitId: number) => string;
  onRemove: (referenceId: string) => void;
}

function RelationTable({ type, referenceIds, summaryOf, busy, onOpen, hrefOf, onRemove }: RelationTableProps) {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const isWorkUnit = type === WORK_UNIT_RELATION;
  const shown = referenceIds.slice(page * pageSize, (page + 1) * pageSize);
  return (
    <>
      <Table size="small" aria-label={`Related ${relationTypeLabel(type)}s`}>
        <TableHead>
          <TableRow>
            <TableCell>{isWorkUnit ? 'ID' : 'Reference'}</TableCell>
            {isWorkUnit && <TableCell>Title</TableCell>}
            {isWorkUnit && <TableCell>State</TableCell>}
            <TableCell align="right" />
          </TableRow>
        </TableHead>
        <TableBody>
          {shown.map((referenceId) => {
            const summary = isWorkUnit ? summaryOf(referenceId) : undefined;
            return (
              <TableRow key={referenceId}>
                <TableCell>{referenceId}</TableCell>
                {isWorkUnit && (
                  <TableCell>
                    {summary ? (
                      <CellLink href={hrefOf(summary.workUnitId)} onClick={() => onOpen(summary.workUnitId)}>
                        {summary.title}
                      </CellLink>
                    ) : (
                      ''
                    )}
                  </TableCell>
                )}
                {isWorkUnit && (
                  <TableCell>{summary ? (STATE_LABELS[summary.stateId] ?? SHELL_MESSAGES.unknownEnum) : ''}</TableCell>
                )}
                <TableCell align="right">
                  <IconButton
                    size="small"
                    aria-label={`Remove relation ${referenceId}`}
                    disabled={busy}
                    onClick={() => onRemove(referenceId)}
                  >
                    <LinkOffIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {referenceIds.length > DEFAULT_PAGE_SIZE && (
        <TablePagination
          component="div"
          count={referenceIds.length}
          page={page}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[...PAGE_SIZE_OPTIONS]}
          onPageChange={(_event, next) => setPage(next)}
          onRowsPerPageChange={(event) => {
            setPageSize(Number(event.target.value));
            setPage(0);
          }}
        />
      )}
    </>
  );
}

import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { DRAWER_WIDE_WIDTH } from '@cfs/contracts/constants';
import { CONDITION_INPUT_OPTIONS_MAX } from '@cfs/contracts/rule-options';
import {
  SILENCE_LIST,
  SILENCE_MESSAGES,
  silenceInputSchema,
  type Silence,
  type SilenceInput,
  type SilenceRow,
} from '@cfs/contracts/silences';
import { usePermissions } from '../../auth/session-data';
import { ItemConfirmDialog, useItemQuestion } from '../../components/confirm-dialog';
import { FormDateTimeField } from '../../components/form-date-time-field';
import { FormSelectField, FormTextField, type FieldOption } from '../../components/form-fields';
import { useSchemaForm } from '../../components/form-resolver';
import { applyServerErrors } from '../../components/form-server-errors';
import { SideDrawer } from '../../components/side-drawer';
import { apiSend } from '../../lib/api-client';
import { formatDateTime } from '../../lib/dates';
import type { JsonOf } from '../../lib/json-types';
import { fetchList, listQueryKey } from '../../lib/list-api';
import { useApiMutation } from '../../lib/mutations';
import { pathId } from '../../lib/ids';
import { useNow } from '../../lib/use-now';
import { useTenantId } from '../../lib/use-tenant-id';
import { RULES_PATH, useConditionInputOptions, type Rule } from './api';

const SILENCES_PATH = '/v1/silences';
const HOUR = 3_600_000;

/** The tenant's rules, by name, for the silence's Rule choice (none: every rule). */
function useRuleOptions(): FieldOption[] {
  const query = { $select: 'ruleId,name', $orderby: 'name asc', $top: '500', $filter: 'enabled eq true' };
  const rules = useQuery({
    queryKey: listQueryKey(RULES_PATH, query),
    queryFn: ({ signal }) => fetchList<JsonOf<Rule>>(RULES_PATH, query, signal),
  });
  return (rules.data?.rows ?? []).map((rule) => ({ value: rule.ruleId, label: rule.name }));
}

/** The tenant's entities that have reported, by id, named as the condition editor names them (block name and id). */
function useEntityOptions(tenantId: string, enabled: boolean) {
  const entities = useConditionInputOptions(tenantId, 'entity', tenantId, enabled);
  const options: FieldOption[] = (entities.data ?? []).map((entity) => ({ value: entity.value, label: entity.label }));
  // A tenant with more entities than the list carries names one by its id instead.
  return { options, complete: options.length < CONDITION_INPUT_OPTIONS_MAX, refetch: () => void entities.refetch() };
}

/**
 * Silences (docs/features/rules.md "Acknowledge and silence"), beside maintenance rules on the
 * Rules page (`?silences=list`): those not over, soonest to end first, each ended with End; and a
 * new one, ahead of time or from now, of one rule or every rule, one entity, every entity of a
 * label, or every entity of the tenant.
 */
export default function SilencesDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const tenantId = useTenantId();
  const canEdit = usePermissions().has('Rules', 'edit');
  // The page's minute clock: the list is asked again for those not over as each minute passes.
  const now = useNow();
  const query = {
    $filter: `ends gt ${new Date(now).toISOString()}`,
    $orderby: SILENCE_LIST.defaultOrderBy,
    $top: String(SILENCE_LIST.defaultPageSize),
    $expand: 'rule',
  };
  const silences = useQuery({
    queryKey: listQueryKey(SILENCES_PATH, query),
    queryFn: ({ signal }) => fetchList<JsonOf<SilenceRow>>(SILENCES_PATH, query, signal),
    enabled: id !== null,
  });
  const entities = useEntityOptions(tenantId, id !== null);
  const entityName = (entityId: string) =>
    entities.options.find((option) => option.value === entityId)?.label ?? entityId;
  const ending = useItemQuestion<JsonOf<SilenceRow>>();
  const end = useApiMutation({
    mutationFn: (silence: JsonOf<SilenceRow>) =>
      apiSend<{ message: string }>('DELETE', `${SILENCES_PATH}/${pathId(silence.ruleSilenceId)}`),
    invalidate: [listQueryKey(SILENCES_PATH), listQueryKey('/v1/rulematches')],
    successMessage: SILENCE_MESSAGES.ended,
    errorMessage: (error) => error.message,
  });
  // Those over by the time the list was read (the minute clock may lag behind an End) are not shown.
  const rows = (silences.data?.rows ?? []).filter((silence) => Date.parse(silence.ends) > silences.dataUpdatedAt);
  return (
    <SideDrawer open={id !== null} onClose={onClose} width={DRAWER_WIDE_WIDTH} title="Silences">
      <Typography variant="body2" color="text.secondary" gutterBottom>
        While a silence lasts, the matches it covers run no action (they are recorded, held back, as in maintenance); a
        match still open when it ends runs its match actions then.
      </Typography>
      {canEdit && <NewSilence tenantId={tenantId} entities={entities} />}
      {silences.isFetching && <LinearProgress />}
      {silences.isError && <Alert severity="error">The silences could not be loaded.</Alert>}
      {silences.data && rows.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          No silences now or ahead.
        </Typography>
      )}
      {rows.length > 0 && (
        <Box sx={{ overflowX: 'auto', mt: 2 }}>
          <Table size="small" aria-label="Silences">
            <TableHead>
              <TableRow>
                <TableCell>Rule</TableCell>
                <TableCell>Covers</TableCell>
                <TableCell>From</TableCell>
                <TableCell>Until</TableCell>
                <TableCell>Note</TableCell>
                <TableCell>By</TableCell>
                {canEdit && <TableCell />}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((silence) => (
                <TableRow key={silence.ruleSilenceId}>
                  <TableCell>{silence.rule?.name ?? 'Every rule'}</TableCell>
                  <TableCell>
                    {silence.subjectId
                      ? entityName(silence.subjectId)
                      : silence.label
                        ? `Label ${silence.label}`
                        : 'Every entity'}
                  </TableCell>
                  <TableCell>{formatDateTime(silence.starts)}</TableCell>
                  <TableCell>{formatDateTime(silence.ends)}</TableCell>
                  <TableCell>{silence.note}</TableCell>
                  <TableCell>{silence.createdBy}</TableCell>
                  {canEdit && (
                    <TableCell>
                      <Button size="small" color="error" onClick={() => ending.ask(silence)}>
                        End
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      <ItemConfirmDialog
        question={ending}
        title="End Silence"
        text={(silence) =>
          `End the silence of ${silence.rule?.name ?? 'every rule'} now? The matches it covers run their actions again; one still open runs its match actions.`
        }
        onConfirm={(silence) => end.mutateAsync(silence)}
      />
    </SideDrawer>
  );
}

function NewSilence({
  tenantId,
  entities,
}: {
  tenantId: string;
  entities: { options: FieldOption[]; complete: boolean; refetch: () => void };
}) {
  const rules = useRuleOptions();
  const start = Math.ceil(useNow() / 60_000) * 60_000;
  const defaults = (): SilenceInput => ({
    tenantId,
    ruleId: null,
    subjectId: '',
    label: '',
    starts: new Date(start).toISOString(),
    ends: new Date(start + 2 * HOUR).toISOString(),
    note: '',
  });
  const form = useSchemaForm(silenceInputSchema, defaults());
  const create = useApiMutation({
    mutationFn: (values: SilenceInput) => apiSend<JsonOf<Silence>>('PUT', SILENCES_PATH, values),
    invalidate: [listQueryKey(SILENCES_PATH), listQueryKey('/v1/rulematches')],
    successMessage: SILENCE_MESSAGES.created,
    errorMessage: (error) => error.message,
    onSuccess: () => form.reset(defaults()),
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync({
        ...values,
        starts: values.starts.toISOString(),
        ends: values.ends.toISOString(),
      });
    } catch (error) {
      applyServerErrors(form, error);
    }
  });
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2 }}
      component="form"
      aria-label="New Silence"
      onSubmit={(event) => void submit(event)}
    >
      <Typography variant="subtitle2">New Silence</Typography>
      <FormSelectField control={form.control} name="ruleId" label="Rule" options={rules} emptyLabel="Every rule" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {entities.complete ? (
          <FormSelectField
            control={form.control}
            name="subjectId"
            label="Entity"
            options={entities.options}
            emptyLabel="Every entity"
            onOpen={entities.refetch}
            helperText="One entity that has reported, or every entity."
          />
        ) : (
          <FormTextField
            control={form.control}
            name="subjectId"
            label="Entity"
            helperText="An entity's id; empty: every entity."
          />
        )}
        <FormTextField control={form.control} name="label" label="Label" helperText="Entities of this block name." />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FormDateTimeField control={form.control} name="starts" label="From" required />
        <FormDateTimeField control={form.control} name="ends" label="Until" required />
      </Stack>
      <FormTextField control={form.control} name="note" label="Note" multiline minRows={2} />
      <Button type="submit" variant="contained" disabled={create.isPending} sx={{ mt: 1 }}>
        Create Silence
      </Button>
    </Paper>
  );
}

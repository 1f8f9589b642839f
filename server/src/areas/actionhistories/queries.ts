import type { ActionHistoryDetail } from '@cfs/contracts/action-histories';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { orNotFound } from '../../http/errors.js';

const record = (value: unknown): Record<string, string> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).map(([name, text]) => [name, String(text)]))
    : null;

function request(value: unknown): ActionHistoryDetail['request'] {
  if (value === null || typeof value !== 'object') return null;
  const { method, url, headers, body } = value as Record<string, unknown>;
  return {
    method: String(method ?? ''),
    url: String(url ?? ''),
    headers: record(headers) ?? {},
    body: typeof body === 'string' ? body : null,
  };
}

/**
 * GET v1/actionHistories/{id}: one run for the history's detail dialog — the row, the request as
 * it was sent (secrets masked by the runner before it was written) and the answer as kept.
 */
export async function findActionHistory(db: Db, scope: TenantScope, id: number): Promise<ActionHistoryDetail> {
  const row = orNotFound(
    await scoped(db, scope)
      .selectFrom('action_history as h')
      .leftJoin('action_definition as d', 'd.action_definition_id', 'h.action_definition_id')
      .selectAll('h')
      .select(['d.name as definition_name'])
      .where('h.action_history_id', '=', id)
      .executeTakeFirst(),
    'The action history entry',
  );
  return {
    actionHistoryId: Number(row.action_history_id),
    actionDefinitionId: row.action_definition_id,
    tenantId: row.tenant_id,
    actionProcessed: row.action_processed,
    resultStatusId: row.result_status_id,
    inputParameters: row.input_parameters,
    resultDetail: row.result_detail,
    correlationId: row.correlation_id,
    referenceId: row.reference_id,
    messageId: row.message_id,
    protocolActionId: row.protocol_action_id,
    ruleMatchId: row.rule_match_id,
    workUnitId: row.work_unit_id,
    actionDefinition:
      row.definition_name === null ? null : { actionDefinitionId: row.action_definition_id, name: row.definition_name },
    request: request(row.request),
    responseStatus: row.response_status,
    responseHeaders: record(row.response_headers),
    responseBody: row.response_body,
    durationMs: row.duration_ms,
  };
}

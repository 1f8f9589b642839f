import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { RESPONSE_BODY_KEPT } from '@cfs/contracts/action-definitions';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db, Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { metrics } from '../../observability/metrics.js';
import { enqueue } from '../jobs/queue.js';
import { defineTask } from '../jobs/task.js';
import { configureOutbound, OutboundNetworkError, sendOutbound, type OutboundRequest } from './outbound.js';
import {
  endpointRefusal,
  OutboundRefused,
  parseOutboundAllow,
  type OutboundAllow,
} from '@cfs/contracts/outbound-guard';
import { fillBuiltInParameters, maskSecrets, runPlaceholders, type Placeholders } from './placeholders.js';
import { ActionFailure, actionRunSchema, builtInAction, type ActionOutcome, type ActionRun } from './run.js';

/** The action types that are HTTP calls (spec 002 §3: 2, 3 and 4); 1, 5 and 6 are built-ins. */
const HTTP_ACTION_TYPES: readonly number[] = [2, 3, 4];

let secretBox: SecretBox | undefined;
let outboundAllow: OutboundAllow = parseOutboundAllow('');

/**
 * What the runner needs of the runtime: the key that opens tenant secrets and OUTBOUND_ALLOW
 * (openRuntime sets them for the app, the worker and tests). Throws on a malformed allow list.
 */
export function configureActionRunner(options: {
  secretBox?: SecretBox;
  outboundAllow?: string;
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
}): void {
  if (options.secretBox) secretBox = options.secretBox;
  if (options.outboundAllow !== undefined) outboundAllow = parseOutboundAllow(options.outboundAllow);
  configureOutbound({
    allow: outboundAllow,
    ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    ...(options.totalTimeoutMs ? { totalTimeoutMs: options.totalTimeoutMs } : {}),
  });
}

/** The save-time check of an endpoint URL under the configured OUTBOUND_ALLOW: why it may not be called, or undefined. */
export const checkEndpoint = (endpointUrl: string): Promise<string | undefined> =>
  endpointRefusal(outboundAllow, endpointUrl);

/** An HTTP run's record in its history row: what was sent (secrets masked) and what came back. */
interface HttpRecord {
  request: { method: string; url: string; headers: Record<string, string>; body: string | null };
  responseStatus?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  durationMs?: number;
}

/** A run that may succeed if tried again (no answer, 5xx, 429): the job retries it; its last attempt is recorded by onFailed. */
export class TransientActionError extends Error {
  constructor(
    message: string,
    readonly record: HttpRecord | undefined,
  ) {
    super(message);
  }
}

/** The history row's links for a run: what it correlates with and what it acted on. */
function historyLinks(run: ActionRun): {
  correlation_id: string;
  reference_id: string | null;
  rule_match_id: string | null;
  protocol_action_id: string | null;
  work_unit_id: number | null;
  message_id: string | null;
} {
  const { origin } = run;
  switch (origin.kind) {
    case 'rule':
      return {
        correlation_id: origin.ruleMatchId,
        reference_id: origin.subjectId,
        rule_match_id: origin.ruleMatchId,
        protocol_action_id: null,
        work_unit_id: null,
        message_id: null,
      };
    case 'protocol':
      return {
        correlation_id: String(origin.workUnitId),
        reference_id: String(origin.workUnitId),
        rule_match_id: null,
        protocol_action_id: origin.protocolActionId,
        work_unit_id: origin.workUnitId,
        message_id: null,
      };
    case 'test':
      return {
        correlation_id: origin.messageId,
        reference_id: null,
        rule_match_id: null,
        protocol_action_id: null,
        work_unit_id: null,
        message_id: origin.messageId,
      };
    case 'workUnit':
      return {
        correlation_id: String(origin.workUnitId),
        reference_id: String(origin.workUnitId),
        rule_match_id: null,
        protocol_action_id: null,
        work_unit_id: origin.workUnitId,
        message_id: null,
      };
  }
}

/** Outcome names for the action-runs metric (`status="Success"`). */
const ACTION_STATUS_NAMES = new Map<number, string>(
  Object.entries(ACTION_RESULT_STATUSES).map(([name, id]) => [id, name]),
);

/** Writes the run's one history row (a second writer under the same key writes nothing). */
/** A grouped notification's history row says it told of a group, not of its first match alone. */
function groupNote({ origin }: ActionRun): string {
  if (origin.kind !== 'rule' || !origin.group) return '';
  const { by, name, count } = origin.group;
  return ` One notification for ${count} matches of ${by} "${name}".`;
}

async function record(
  executor: Db | Tx,
  run: ActionRun,
  key: string,
  outcome: ActionOutcome,
  http?: HttpRecord,
): Promise<void> {
  metrics.actionOutcomes.inc({ status: ACTION_STATUS_NAMES.get(outcome.status) ?? String(outcome.status) });
  const links = historyLinks(run);
  await scoped(executor, ALL_TENANTS)
    .insertInto('action_history', {
      tenant_id: run.tenantId,
      action_definition_id: run.actionDefinitionId,
      result_status_id: outcome.status,
      input_parameters: JSON.stringify(run.parameters),
      result_detail: outcome.detail + groupNote(run),
      ...links,
      reference_id: outcome.referenceId ?? links.reference_id,
      job_key: key,
      ...(http
        ? {
            request: JSON.stringify(http.request),
            response_status: http.responseStatus ?? null,
            response_headers: http.responseHeaders ? JSON.stringify(http.responseHeaders) : null,
            response_body: http.responseBody ?? null,
            duration_ms: http.durationMs ?? null,
          }
        : {}),
    })
    .onConflict((oc) => oc.column('job_key').doNothing())
    .execute();
}

/**
 * A run that was not made because a person rejected it (a manual protocol step): its history row,
 * Suppressed with the reason, in the caller's transaction. Written once per key: the key says so.
 */
export async function recordRejectedRun(trx: Tx, run: ActionRun, key: string, detail: string): Promise<void> {
  await scoped(trx, ALL_TENANTS)
    .insertInto('action_history', {
      tenant_id: run.tenantId,
      action_definition_id: run.actionDefinitionId,
      result_status_id: ACTION_RESULT_STATUSES.Suppressed,
      input_parameters: JSON.stringify(run.parameters),
      result_detail: detail,
      ...historyLinks(run),
      job_key: key,
    })
    .execute();
}

/** "Name: Value" lines as headers (blank lines skipped; a line without a colon is not a header). */
function parseHeaderLines(text: string | null): [string, string][] {
  const headers: [string, string][] = [];
  for (const line of (text ?? '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return headers;
}

/** Header values may not break the header block. */
const headerSafe = (value: string) => value.replace(/[\r\n\0]+/g, ' ');
const jsonEscaped = (value: string) => JSON.stringify(value).slice(1, -1);

/**
 * The request an HTTP action's run sends: placeholders filled (URL-encoded in the URL's path and
 * query, as they are in its host; JSON-escaped in a JSON body), the method (default POST), the
 * headers, Content-Type application/json for a body that names none, and Idempotency-Key: the
 * run's key, the same on every attempt, so the receiver can tell a repeat.
 */
function buildRequest(
  definition: { endpoint_url: string | null; http_method: string | null; headers: string | null; body: string | null },
  placeholders: Placeholders,
  key: string,
): { sent: OutboundRequest; recorded: HttpRecord['request'] } {
  const template = definition.endpoint_url ?? '';
  const authorityEnd = (() => {
    const start = template.indexOf('://');
    if (start < 0) return 0;
    const end = template.slice(start + 3).search(/[/?#]/);
    return end < 0 ? template.length : start + 3 + end;
  })();
  const url = placeholders.fill(template, (value, offset) => {
    if (offset >= authorityEnd) return encodeURIComponent(value);
    // In the scheme and host a value stands as it is (a base URL, a host name); the guard judges where it leads.
    if (/[\s@\\]/.test(value))
      throw new ActionFailure('A placeholder of the endpoint URL gives its host a value that is not a host.');
    return value;
  });
  const headers: Record<string, string> = {};
  const maskedHeaders: Record<string, string> = {};
  for (const [name, value] of parseHeaderLines(definition.headers)) {
    const filled = placeholders.fill(value, headerSafe);
    headers[name] = filled.value;
    maskedHeaders[name] = filled.masked;
  }
  const method = (definition.http_method || 'POST').toUpperCase();
  const hasBody = definition.body !== null && definition.body !== '' && method !== 'GET' && method !== 'HEAD';
  const contentTypeName = Object.keys(headers).find((name) => name.toLowerCase() === 'content-type');
  if (hasBody && !contentTypeName) {
    headers['Content-Type'] = 'application/json';
    maskedHeaders['Content-Type'] = 'application/json';
  }
  const contentType = contentTypeName ? (headers[contentTypeName] ?? '') : 'application/json';
  const body = hasBody
    ? placeholders.fill(definition.body ?? '', /json/i.test(contentType) ? jsonEscaped : (value) => value)
    : null;
  headers['Idempotency-Key'] = key;
  maskedHeaders['Idempotency-Key'] = key;
  return {
    sent: { method, url: url.value, headers, body: body?.value ?? null },
    recorded: { method, url: url.masked, headers: maskedHeaders, body: body?.masked ?? null },
  };
}

/** The HTTP action's run: the call, outside any transaction, and its outcome. */
async function runHttp(
  db: Db,
  run: ActionRun,
  key: string,
  definition: {
    name: string;
    endpoint_url: string | null;
    http_method: string | null;
    headers: string | null;
    body: string | null;
  },
): Promise<{ outcome: ActionOutcome; http: HttpRecord }> {
  const placeholders = await runPlaceholders(db, secretBox, run, [
    definition.endpoint_url,
    definition.headers,
    definition.body,
  ]);
  const { sent, recorded } = buildRequest(definition, placeholders, key);
  const secrets = placeholders.secretValues();
  const missing =
    placeholders.missing.size > 0
      ? ` Placeholders without a value (left empty): ${[...placeholders.missing].map((name) => `{${name}}`).join(', ')}.`
      : '';
  const started = performance.now();
  try {
    const response = await sendOutbound(sent);
    const kept = maskSecrets(response.body.slice(0, RESPONSE_BODY_KEPT), secrets);
    const http: HttpRecord = {
      request: recorded,
      responseStatus: response.status,
      responseHeaders: Object.fromEntries(
        Object.entries(response.headers).map(([name, value]) => [name, maskSecrets(value, secrets)]),
      ),
      responseBody: kept,
      durationMs: response.durationMs,
    };
    const summary = `${recorded.method} ${recorded.url} answered ${response.status} in ${response.durationMs} ms.${missing}`;
    if (response.status === 429 || response.status >= 500) throw new TransientActionError(summary, http);
    return {
      outcome: {
        status:
          response.status >= 200 && response.status < 300
            ? ACTION_RESULT_STATUSES.Success
            : ACTION_RESULT_STATUSES.Failure,
        detail: summary,
      },
      http,
    };
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    if (error instanceof OutboundRefused)
      throw new HttpActionFailure(
        `${recorded.method} ${recorded.url} was not called: ${maskSecrets(error.message, secrets)}${missing}`,
        { request: recorded, durationMs },
      );
    if (error instanceof OutboundNetworkError)
      throw new TransientActionError(
        `${recorded.method} ${recorded.url}: ${maskSecrets(error.message, secrets)}${missing}`,
        { request: recorded, durationMs },
      );
    throw error;
  }
}

/** A Failure at once (not retried) that still records what was to be sent. */
class HttpActionFailure extends ActionFailure {
  constructor(
    message: string,
    readonly record: HttpRecord,
  ) {
    super(message);
  }
}

/**
 * Runs one action once (DESIGN: one action runner): the action history row, keyed by the run's
 * idempotency key, is written with the outcome, and a run that finds its row already written does
 * nothing (a job may run twice). Built-ins run through their registration, HTTP actions (types 2,
 * 3, 4) through the guarded client; a suppressed rule action (the subject in maintenance) is only
 * recorded. An action that cannot run — refused by the guard, answered 4xx, gone — is recorded as a
 * Failure at once: retrying would not change the answer. No answer, 5xx or 429 throw
 * TransientActionError so the job tries again; the task's onFailed records the last attempt.
 */
export async function runAction(db: Db, run: ActionRun, key: string): Promise<void> {
  const all = scoped(db, ALL_TENANTS);
  if (await all.selectFrom('action_history').select('action_history_id').where('job_key', '=', key).executeTakeFirst())
    return;
  const { origin } = run;
  if (origin.kind === 'rule' && origin.suppressed) {
    await record(db, run, key, {
      status: ACTION_RESULT_STATUSES.Suppressed,
      detail: `Suppressed: ${origin.label ?? origin.subjectId} was in maintenance when rule "${origin.ruleName}" ${origin.phase === 'match' ? 'matched' : 'expired'}.`,
    });
    return;
  }
  try {
    const builtIn = builtInAction(run.actionDefinitionId);
    if (builtIn) {
      // The history keeps the parameters as written; the built-in gets them with their placeholders filled.
      await record(db, run, key, await builtIn(db, { ...run, parameters: await fillBuiltInParameters(db, run) }, key));
      return;
    }
    const definition = await all
      .selectFrom('action_definition')
      .select(['name', 'action_definition_type_id', 'tenant_id', 'endpoint_url', 'http_method', 'headers', 'body'])
      .where('action_definition_id', '=', run.actionDefinitionId)
      .executeTakeFirst();
    if (!definition) throw new ActionFailure('The action no longer exists.');
    if (!HTTP_ACTION_TYPES.includes(definition.action_definition_type_id) || !definition.endpoint_url)
      throw new ActionFailure(`The action "${definition.name}" cannot be run yet.`);
    if (definition.tenant_id !== null && definition.tenant_id !== run.tenantId)
      throw new ActionFailure(`The action "${definition.name}" belongs to another tenant.`);
    const { outcome, http } = await runHttp(db, run, key, definition);
    await record(db, run, key, outcome, http);
  } catch (error) {
    if (error instanceof HttpActionFailure)
      return record(db, run, key, { status: ACTION_RESULT_STATUSES.Failure, detail: error.message }, error.record);
    if (!(error instanceof ActionFailure) && !(error instanceof Error && 'statusCode' in error)) throw error;
    await record(db, run, key, { status: ACTION_RESULT_STATUSES.Failure, detail: error.message });
  }
}

/** After the last attempt: the run's Failure row, with what the last attempt sent and got. */
export async function recordLastFailure(db: Db, run: ActionRun, key: string, error: unknown): Promise<void> {
  const detail = error instanceof Error ? error.message : String(error);
  await record(
    db,
    run,
    key,
    { status: ACTION_RESULT_STATUSES.Failure, detail: `Gave up after the last attempt: ${detail}` },
    error instanceof TransientActionError ? error.record : undefined,
  );
}

export const actionRunTask = defineTask({
  name: 'actions.run',
  payload: actionRunSchema,
  attempts: 5,
  perform: (run, { db, key }) => runAction(db, run, key),
  onFailed: (run, error, { db, key }) => recordLastFailure(db, run, key, error),
});

/**
 * Enqueues an action run in the transaction that causes it; one run per key however often it is
 * asked for (a protocol step on a unit's event: `protocol:{eventId}:{protocolActionId}`).
 */
export function enqueueActionRun(trx: Tx, run: ActionRun, key: string, runAt?: Date): Promise<boolean> {
  return enqueue(trx, actionRunTask, run, { key, runAt });
}

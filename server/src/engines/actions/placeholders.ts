import { SECRET_MASK, SECRET_PLACEHOLDER_PREFIX } from '@cfs/contracts/action-definitions';
import { ACTION_RESULT_STATUSES, BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { ActionFailure, type ActionRun } from './run.js';

/**
 * Placeholders of an action (spec 002 §5: case-sensitive): `{Name}` in the URL, the headers and the
 * body is filled from the run's parameters and its origin's context, `{Secret:Name}` from the
 * tenant's secret of that name. Every filled text exists twice: as sent, and as the history keeps
 * it, where a secret's value is SECRET_MASK. A placeholder without a value is left empty and named
 * in the run's history.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `{Name}` (letters, digits, underscores, dots: {Metrics.cpu}) or `{Secret:Name}`. */
const PLACEHOLDER = /\{(Secret:[A-Za-z0-9_.-]+|[A-Za-z_][A-Za-z0-9_.]*)\}/g;

/** One value as sent and as recorded. */
export interface Value {
  value: string;
  masked: string;
}

export interface Filled {
  value: string;
  masked: string;
}

/** The values a run's placeholders take, and the names asked for that had none. */
export class Placeholders {
  readonly missing = new Set<string>();
  constructor(
    private readonly values: ReadonlyMap<string, Value>,
    private readonly secrets: ReadonlyMap<string, string>,
  ) {}

  /** The secrets' plain values (to mask them wherever an answer echoes them). */
  secretValues(): string[] {
    return [...this.secrets.values()].filter((value) => value.length >= 4);
  }

  private lookup(name: string): Value | undefined {
    if (name.startsWith(SECRET_PLACEHOLDER_PREFIX)) {
      const secret = this.secrets.get(name.slice(SECRET_PLACEHOLDER_PREFIX.length));
      return secret === undefined ? undefined : { value: secret, masked: SECRET_MASK };
    }
    return this.values.get(name);
  }

  /** Fills `text`, each value passed through `encode` (e.g. URL or JSON escaping) where it stands at `offset`. */
  fill(text: string, encode: (value: string, offset: number) => string = (value) => value): Filled {
    let value = '';
    let masked = '';
    let last = 0;
    for (const match of text.matchAll(PLACEHOLDER)) {
      const name = match[1] ?? '';
      const found = this.lookup(name);
      if (!found) this.missing.add(name);
      value += text.slice(last, match.index) + (found ? encode(found.value, match.index) : '');
      masked +=
        text.slice(last, match.index) +
        (found ? (found.masked === found.value ? encode(found.value, match.index) : found.masked) : '');
      last = match.index + match[0].length;
    }
    return { value: value + text.slice(last), masked: masked + text.slice(last) };
  }
}

/** The names of the secrets `texts` ask for. */
export function secretNames(texts: readonly (string | null | undefined)[]): string[] {
  const names = new Set<string>();
  for (const text of texts)
    for (const match of (text ?? '').matchAll(PLACEHOLDER))
      if (match[1]?.startsWith(SECRET_PLACEHOLDER_PREFIX)) names.add(match[1].slice(SECRET_PLACEHOLDER_PREFIX.length));
  return [...names];
}

/** work_unit_id → WorkUnitId, custom_value_1 → CustomValue1. */
const pascal = (column: string) =>
  column.replace(/(^|_)([a-z0-9])/g, (_, __: string, letter: string) => letter.toUpperCase());

const text = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : value instanceof Date
      ? value.toISOString()
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value as string | number | boolean);

/** A packet's fields: top-level by name, nested by path ({Metrics.cpu}). */
function flatten(prefix: string, value: unknown, into: Map<string, string>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    if (prefix) into.set(prefix, JSON.stringify(value));
    for (const [key, inner] of Object.entries(value)) flatten(prefix ? `${prefix}.${key}` : key, inner, into);
  } else if (prefix) {
    into.set(prefix, text(value));
  }
}

/** What the run's origin tells: the work unit's fields, the rule match and its entity's latest packet, or the test's message. */
async function originContext(db: Db, run: ActionRun): Promise<Map<string, string>> {
  const context = new Map<string, string>([
    ['TenantId', run.tenantId],
    ['ActionDefinitionId', run.actionDefinitionId],
  ]);
  const tenant = scoped(db, { kind: 'some', tenantIds: [run.tenantId] });
  const { origin } = run;
  switch (origin.kind) {
    case 'protocol': {
      const unit = await tenant
        .selectFrom('work_unit')
        .selectAll()
        .where('work_unit_id', '=', origin.workUnitId)
        .executeTakeFirst();
      for (const [column, value] of Object.entries(unit ?? {})) context.set(pascal(column), text(value));
      context.set('WorkUnitId', String(origin.workUnitId));
      context.set('ProtocolId', String(origin.protocolId));
      context.set('ProtocolActionId', origin.protocolActionId);
      context.set('WorkUnitEventTypeId', String(origin.workUnitEventTypeId));
      context.set('TriggeredBy', origin.triggeredBy);
      break;
    }
    case 'rule': {
      // A rule's subject is an entity (a UUID) or, for a work unit rule, the unit's id: only an entity has packets.
      const entity = UUID.test(origin.subjectId);
      const packet = entity
        ? await tenant
            .selectFrom('packet_latest')
            .select(['message', 'timestamp'])
            .where('entity_id', '=', origin.subjectId)
            .executeTakeFirst()
        : undefined;
      if (packet) {
        flatten('', packet.message, context);
        context.set('Timestamp', text(packet.timestamp));
      }
      // The work unit: a work unit rule's subject, or the one this match's Create Work Unit opened (once it ran).
      const opened = entity
        ? await tenant
            .selectFrom('action_history')
            .select('reference_id')
            .where('rule_match_id', '=', origin.ruleMatchId)
            .where('action_definition_id', '=', BUILT_IN_ACTIONS.createWorkUnit.id)
            .where('result_status_id', '=', ACTION_RESULT_STATUSES.Success)
            .orderBy('action_history_id')
            .executeTakeFirst()
        : undefined;
      const workUnitId = entity ? Number(opened?.reference_id ?? Number.NaN) : Number(origin.subjectId);
      const unit = Number.isSafeInteger(workUnitId)
        ? await tenant.selectFrom('work_unit').selectAll().where('work_unit_id', '=', workUnitId).executeTakeFirst()
        : undefined;
      for (const [column, value] of Object.entries(unit ?? {})) context.set(pascal(column), text(value));
      if (entity) context.set('EntityId', origin.subjectId);
      // Without a unit, the title a Create Work Unit of this match gives its unit.
      if (!unit)
        context.set(
          'Title',
          `${origin.ruleName}: ${origin.label ? `${origin.label} (${origin.subjectId})` : origin.subjectId}`,
        );
      context.set('RuleName', origin.ruleName);
      context.set('RuleId', origin.ruleId);
      context.set('RuleMatchId', origin.ruleMatchId);
      context.set('SubjectId', origin.subjectId);
      context.set('Label', origin.label ?? '');
      context.set('Phase', origin.phase);
      context.set('TenantId', run.tenantId);
      // A grouped notification: the group, and every match it tells of as JSON (its first match fills the rest).
      context.set('GroupBy', origin.group?.by ?? '');
      context.set('GroupName', origin.group?.name ?? '');
      context.set('GroupCount', String(origin.group?.count ?? 1));
      context.set(
        'GroupMatches',
        JSON.stringify(
          origin.group?.matches ?? [
            {
              ruleMatchId: origin.ruleMatchId,
              ruleName: origin.ruleName,
              subjectId: origin.subjectId,
              label: origin.label,
            },
          ],
        ),
      );
      break;
    }
    case 'test':
      context.set('MessageId', origin.messageId);
      context.set('TriggeredBy', origin.triggeredBy);
      break;
    case 'workUnit': {
      const unit = await tenant
        .selectFrom('work_unit')
        .selectAll()
        .where('work_unit_id', '=', origin.workUnitId)
        .executeTakeFirst();
      for (const [column, value] of Object.entries(unit ?? {})) context.set(pascal(column), text(value));
      context.set('WorkUnitId', String(origin.workUnitId));
      context.set('TriggeredBy', origin.triggeredBy);
      break;
    }
  }
  return context;
}

/** The tenant's secrets by name (their latest values); names without a secret are left out. */
async function loadSecrets(
  db: Db,
  box: SecretBox | undefined,
  tenantId: string,
  names: readonly string[],
): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  if (!box) throw new ActionFailure('Secrets cannot be read: the action runner has no key.');
  const rows = await scoped(db, { kind: 'some', tenantIds: [tenantId] })
    .selectFrom('tenant_secret as s')
    .innerJoin('tenant_secret_version as v', (join) =>
      join.onRef('v.secret_id', '=', 's.secret_id').onRef('v.version', '=', 's.latest_version'),
    )
    .select(['s.name', 'v.key_id', 'v.ciphertext'])
    .where('s.tenant_id', '=', tenantId)
    .where('s.name', 'in', names)
    .execute();
  return new Map(rows.map((row) => [row.name, box.decrypt(row.key_id, row.ciphertext)]));
}

/**
 * The placeholders of a run of an action whose texts are `texts`: the origin's context, then the
 * run's parameters (which win, and whose own placeholders are filled from the context and the
 * secrets), and the secrets any of them name.
 */
export async function runPlaceholders(
  db: Db,
  box: SecretBox | undefined,
  run: ActionRun,
  texts: readonly (string | null)[],
): Promise<Placeholders> {
  const context = await originContext(db, run);
  const secrets = await loadSecrets(db, box, run.tenantId, secretNames([...texts, ...Object.values(run.parameters)]));
  const values = new Map<string, Value>([...context].map(([name, value]) => [name, { value, masked: value }]));
  const base = new Placeholders(values, secrets);
  const all = new Map(values);
  for (const [name, value] of Object.entries(run.parameters)) all.set(name, base.fill(value));
  const placeholders = new Placeholders(all, secrets);
  for (const name of base.missing) placeholders.missing.add(name);
  return placeholders;
}

const jsonEscaped = (value: string) => JSON.stringify(value).slice(1, -1);

/** Whether a parameter is JSON text (Send Email's ExtraParameters): its placeholders stand inside its strings. */
function isJsonText(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object';
  } catch {
    return false;
  }
}

/**
 * A built-in's parameters (Send Email's ExtraParameters, Template…) with their placeholders filled
 * from the run's context, JSON-escaped in JSON text. Secrets are not filled: a built-in's
 * parameters end up in emails and work units, where a secret has no place.
 */
export async function fillBuiltInParameters(db: Db, run: ActionRun): Promise<Record<string, string>> {
  const context = await originContext(db, run);
  const placeholders = new Placeholders(
    new Map([...context].map(([name, value]) => [name, { value, masked: value }])),
    new Map(),
  );
  return Object.fromEntries(
    Object.entries(run.parameters).map(([name, value]) => [
      name,
      placeholders.fill(value, isJsonText(value) ? jsonEscaped : undefined).value,
    ]),
  );
}

/** Replaces every secret value in `text` by the mask (an answer that echoes what it was sent). */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) masked = masked.split(secret).join(SECRET_MASK);
  return masked;
}

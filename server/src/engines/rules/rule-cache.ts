import { sql } from 'kysely';
import { LEFT_OPERANDS } from '@cfs/contracts/monitoring';
import type { Db, Tx } from '../../db/database.js';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import { scoped } from '../../db/scoped.js';
import { compileRule, packetEvaluator, type CompiledRule, type PacketSubject, type RuleRow } from './compile.js';
import { loadSilences, type CompiledSilence } from './silences.js';

/**
 * The enabled rules that apply to a tenant (its own and the installation's), compiled, kept in
 * memory per instance so that a packet batch is evaluated without reading rules.
 *
 * Each tenant's set is checked against the database at most once a second (one indexed query of the
 * ids and modification times) and compiled again only when it changed: a change made on any
 * instance is in force everywhere within about a second, and at once on the instance that made it
 * (`forgetRules`).
 */
export interface TenantRules {
  all: readonly CompiledRule[];
  /** Evaluated as each packet arrives (Ingestion rules without occurrence patterns). */
  packet: readonly CompiledRule[];
  /** Which packet rules match a packet (`packetEvaluator` of `packet`); the answer holds until the next call. */
  packetMatches: (subject: PacketSubject) => readonly CompiledRule[];
  /** Whether a packet or maintenance rule reads the packet's device (else ingestion does not look it up). */
  readsDevice: boolean;
  /** Evaluated by the worker over stored packets (History, Aggregation, Correlation, patterned Ingestion). */
  window: readonly CompiledRule[];
  maintenance: readonly CompiledRule[];
  workUnit: readonly CompiledRule[];
  /** The tenant's silences not over yet (silences.ts): matches they cover are recorded in maintenance. */
  silences: readonly CompiledSilence[];
}

const RECHECK_MS = 1000;

interface Entry {
  fingerprint: string;
  rules: TenantRules;
  /** When the check that found these rules began. */
  checked: number;
  pending?: Promise<TenantRules>;
  /** When the pending check began. */
  pendingFrom?: number;
}

const caches = new WeakMap<Db, Map<string, Entry>>();

function cacheOf(db: Db): Map<string, Entry> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

/** Drops what this instance holds, so that its next batch reads the rules again (after a change made here). */
export function forgetRules(db: Db): void {
  caches.get(db)?.clear();
}

function split(all: CompiledRule[], silences: readonly CompiledSilence[]): TenantRules {
  const packet = all.filter((rule) => rule.mode === 'packet');
  const maintenance = all.filter((rule) => rule.mode === 'maintenance');
  return {
    all,
    packet,
    packetMatches: packetEvaluator(packet),
    readsDevice: [...packet, ...maintenance].some((rule) =>
      rule.conditions.some((condition) => condition.condition.LeftOperand === LEFT_OPERANDS.Device.id),
    ),
    window: all.filter((rule) => rule.mode === 'history' || rule.mode === 'aggregate' || rule.mode === 'correlation'),
    maintenance,
    workUnit: all.filter((rule) => rule.mode === 'workUnit'),
    silences,
  };
}

const ruleColumns = [
  'rule_id',
  'name',
  'tenant_id',
  'rule_type_id',
  'match_lifetime_seconds',
  'use_sliding_expiration',
  'time_conditions',
  'conditions',
  'match_actions',
  'expiration_actions',
  'closes_on',
  'pending_seconds',
  'recovery_conditions',
] as const;

/** The enabled rules of a tenant and the installation's; read by the engine for any tenant, so unscoped by design. */
export async function loadRuleRows(db: Db | Tx, tenantId: string | null): Promise<RuleRow[]> {
  let query = scoped(db, ALL_TENANTS).selectFrom('rule').select(ruleColumns).where('enabled', '=', true);
  query =
    tenantId === null
      ? query
      : query.where((eb) => eb.or([eb('tenant_id', '=', tenantId), eb('tenant_id', 'is', null)]));
  return query.orderBy('rule_id').execute();
}

async function load(
  db: Db,
  executor: Db | Tx,
  tenantId: string,
  entry: Entry | undefined,
  started: number,
): Promise<TenantRules> {
  const stamps = await scoped(executor, ALL_TENANTS)
    .selectFrom('rule')
    .select(
      sql<string>`coalesce(string_agg(rule_id::text || ':' || extract(epoch from modified)::text, ',' ORDER BY rule_id), '')
        || '|' || (SELECT coalesce(string_agg(rule_silence_id::text || ':' || extract(epoch from ends)::text, ',' ORDER BY rule_silence_id), '')
          FROM rule_silence WHERE tenant_id = ${tenantId} AND ends > now())`.as('fingerprint'),
    )
    .where('enabled', '=', true)
    .where((eb) => eb.or([eb('tenant_id', '=', tenantId), eb('tenant_id', 'is', null)]))
    .executeTakeFirstOrThrow();
  if (entry && entry.fingerprint === stamps.fingerprint) return entry.rules;
  const rows = await loadRuleRows(executor, tenantId);
  const rules = split(
    rows.flatMap((row) => compileRule(row) ?? []),
    await loadSilences(executor, tenantId),
  );
  cacheOf(db).set(tenantId, { fingerprint: stamps.fingerprint, rules, checked: started });
  return rules;
}

/**
 * `executor`: the transaction the caller is in, if any (the rules are then read through it).
 * `since` (epoch ms): the rules must have been checked after it, e.g. after an event was recorded,
 * so that a rule saved before the event applies to it.
 */
export async function rulesFor(db: Db, tenantId: string, executor: Db | Tx = db, since?: number): Promise<TenantRules> {
  const cache = cacheOf(db);
  const entry = cache.get(tenantId);
  const fresh = (checked: number) => Date.now() - checked < RECHECK_MS && (since === undefined || checked > since);
  if (entry && fresh(entry.checked)) return entry.rules;
  if (entry?.pending && entry.pendingFrom !== undefined && (since === undefined || entry.pendingFrom > since))
    return entry.pending;
  const started = Date.now();
  const pending = load(db, executor, tenantId, entry, started).then(
    (rules) => {
      const current = cache.get(tenantId);
      if (current) {
        current.checked = Math.max(current.checked, started);
        if (current.pending === pending) {
          delete current.pending;
          delete current.pendingFrom;
        }
      }
      return rules;
    },
    (error: unknown) => {
      const current = cache.get(tenantId);
      if (current?.pending === pending) {
        delete current.pending;
        delete current.pendingFrom;
      }
      throw error;
    },
  );
  if (entry) {
    entry.pending = pending;
    entry.pendingFrom = started;
  }
  return pending;
}

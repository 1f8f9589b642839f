import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely, OperationNode, SelectQueryBuilder } from 'kysely';
import { TableNode } from 'kysely';
import type { Principal } from '../auth/principal.js';
import type { ChangeCounters } from '../db/change-counters.js';
import type { ListQueryInput } from '../odata/list-query.js';
import { parseListQuery } from '../odata/list-query.js';
import { buildListSql } from '../odata/list-query-sql.js';
import type { Resource } from '../odata/resource.js';

/** What a list answer depends on besides the caller: its statements' digest and the tables they read. */
interface ListStatement {
  digest: string;
  tables: readonly string[];
}

/** Per resource, by base statement, scope and query, like the list layer's compiled statements. */
const statements = new WeakMap<Resource, Map<string, ListStatement>>();
const STATEMENTS_PER_RESOURCE = 500;
const principalDigests = new WeakMap<Principal, string>();

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
const json = (value: unknown) => JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));

/**
 * Every table a statement reads: its FROM, joins, subqueries and expansions, the base query's
 * included. A column reference's qualifier (`t0.tenant_id`) is an alias, not a table read. A name
 * taken wrongly for a table has no counter, so the list goes untagged: a mistake here costs a
 * query, never a stale answer.
 */
export function tablesOf(node: OperationNode): string[] {
  const tables = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if ('kind' in value && TableNode.is(value as OperationNode)) {
      tables.add((value as TableNode).table.identifier.name);
      return;
    }
    const qualified = 'kind' in value && value.kind === 'ReferenceNode';
    for (const [key, item] of Object.entries(value)) if (!(qualified && key === 'table')) visit(item);
  };
  visit(node);
  return [...tables].sort();
}

/** The statements a list request runs, parsed and built once per distinct request (a grid's polling repeats its request exactly). */
function listStatement<DB, TB extends keyof DB, O>(db: Kysely<DB>, resource: Resource, base: SelectQueryBuilder<DB, TB, O>, query: ListQueryInput, principal: Principal): ListStatement {
  const baseSql = base.compile();
  const key = json([baseSql.sql, baseSql.parameters, principal.tenantScope, query]);
  let byKey = statements.get(resource);
  if (!byKey) statements.set(resource, (byKey = new Map()));
  const known = byKey.get(key);
  if (known) return known;
  const parsed = parseListQuery(resource, query);
  const built = buildListSql(base, parsed, principal.tenantScope);
  const rows = built.rows.compile(db);
  const count = parsed.count ? built.count.compile(db) : undefined;
  const tables = tablesOf(built.rows.toOperationNode()).concat(count ? tablesOf(built.count.toOperationNode()) : []);
  const statement = { digest: sha256(json([rows.sql, rows.parameters, count?.sql, count?.parameters])), tables: [...new Set(tables)].sort() };
  byKey.set(key, statement);
  if (byKey.size > STATEMENTS_PER_RESOURCE) byKey.delete(byKey.keys().next().value as string);
  return statement;
}

/** Whatever about the caller could change an answer: who, which tenants, which permissions and groups. */
function principalDigest(principal: Principal): string {
  let digest = principalDigests.get(principal);
  if (digest === undefined) {
    digest = sha256(json([principal.userId, principal.tenantScope, principal.permissionStrings, principal.groups]));
    principalDigests.set(principal, digest);
  }
  return digest;
}

/**
 * The entity tag of a list answer as the data stands now: a hash of the request's statements
 * (the query, the route's base and the caller's scope, as SQL and parameters), the caller, and the
 * change counters of every table those statements read. Undefined when the counters cannot be
 * trusted now or a table read is not tracked: the list is then answered by its query, untagged.
 *
 * Read before the query runs, a tag can only be older than the rows it is sent with (a write
 * committed in between is counted after it): the next poll then gets a 200, never a stale 304.
 * Weak (`W/`), since compression changes the bytes, not the meaning.
 *
 * @example
 *   const tag = listETag(counters, db, resource, base(user), request.query, user);
 *   if (tag && matchesIfNoneMatch(request.headers['if-none-match'], tag)) return reply.code(304).header('ETag', tag).send();
 */
export function listETag<DB, TB extends keyof DB, O>(
  counters: ChangeCounters,
  db: Kysely<DB>,
  resource: Resource,
  base: SelectQueryBuilder<DB, TB, O>,
  query: ListQueryInput,
  principal: Principal,
): string | undefined {
  const statement = listStatement(db, resource, base, query, principal);
  const values = counters.current(statement.tables);
  if (!values) return undefined;
  return `W/"${sha256(json([statement.digest, principalDigest(principal), statement.tables, values])).slice(0, 32)}"`;
}

/** Whether an If-None-Match header names `tag` (weak comparison, RFC 9110 §13.1.2). */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const opaque = tag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The tables' change counters that list answers are tagged with (registerChangeCounters). */
    changeCounters: ChangeCounters;
  }
}

/**
 * Hands the change counters to every list route (registerListRoutes tags its answers with them)
 * and keeps a caller's own write visible on their next poll: before a write is answered, this
 * instance reads the counters again, so the list it changed is not answered 304.
 */
export function registerChangeCounters(app: FastifyInstance, counters: ChangeCounters): void {
  app.decorate('changeCounters', counters);
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await counters.sync();
  });
}

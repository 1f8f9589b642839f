import type { FastifyReply } from 'fastify';
import type { CompiledQuery, Kysely, SelectQueryBuilder } from 'kysely';
import type { TenantScope } from '../auth/tenant-scope.js';
import { orNotFound } from '../http/errors.js';
import { compileList, type ListSqlRow } from './list-query-sql.js';
import type { Resource } from './resource.js';

/** An item's JSON text as the list layer builds it: sent as it is, never parsed and serialised again. */
export class ListItemJson {
  constructor(readonly text: string) {}
}

/**
 * Sends an item's JSON text as the answer. A text is not serialised again, so the route's response
 * schema documents the answer without checking it (the tests do).
 */
export function sendListItem(reply: FastifyReply, item: ListItemJson): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(item.text as never);
}

/** Stand-ins for the key in an item's statement; each call puts its own key in their place. */
const ANY_NUMBER = -918_273_645;
const ANY_GUID = '00000000-0000-4000-8000-0000918273fe';
const itemStatements = new WeakMap<Resource, WeakMap<TenantScope, Map<string, CompiledQuery<ListSqlRow>>>>();

/**
 * The statement that reads one item of `resource` by a key field (`field eq id`) as the list builds
 * its rows, with the expansions `expand` names: one statement, the database building the JSON, so a
 * single item and a list row are shaped by the same code and cannot disagree. Compiled once per
 * resource, caller's scope, field and expansion; each call puts its own id in place of the stand-in.
 */
export function listItemStatement<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  resource: Resource,
  base: () => SelectQueryBuilder<DB, TB, O>,
  scope: TenantScope,
  item: { field: string; id: number | string; expand: string },
): CompiledQuery<ListSqlRow> {
  const stand = typeof item.id === 'number' ? ANY_NUMBER : ANY_GUID;
  let byScope = itemStatements.get(resource);
  if (!byScope) itemStatements.set(resource, (byScope = new WeakMap()));
  // A caller's scope is kept with its cached principal: its statements are compiled on its first call only.
  let compiled = byScope.get(scope);
  if (!compiled) byScope.set(scope, (compiled = new Map()));
  const key = JSON.stringify([item.field, stand, item.expand]);
  let rows = compiled.get(key);
  if (!rows) {
    const query = { $filter: `${item.field} eq ${stand}`, $expand: item.expand, $top: '1' };
    rows = compileList(db, resource, base(), query, scope).rows;
    compiled.set(key, rows);
  }
  return { ...rows, parameters: rows.parameters.map((value) => (value === stand ? item.id : value)) };
}

/** One item's JSON text (listItemStatement); 404 "{what} was not found." when the caller's base holds no such item. */
export async function findListItem<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  resource: Resource,
  base: () => SelectQueryBuilder<DB, TB, O>,
  scope: TenantScope,
  item: { field: string; id: number | string; expand: string },
  what: string,
): Promise<ListItemJson> {
  const found = await db.executeQuery(listItemStatement(db, resource, base, scope, item));
  return new ListItemJson(orNotFound(found.rows[0], what).row);
}

import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { exportQuerySchema, listQuerySchema, listResponseSchema } from '@cfs/contracts/api';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/database.js';
import type { DB as Database } from '../db/schema.js';
import { parseExportColumns, parseListQuery, type ExportColumn, type ListQueryInput } from '../odata/list-query.js';
import {
  buildListSql,
  compileList,
  executeListStatement,
  listBase,
  openListCursor,
  runCompiledList,
  type ListBase,
  type ListCursor,
  type ListSqlRow,
} from '../odata/list-query-sql.js';
import { matchesIfNoneMatch } from './list-etag.js';
import type { Resource } from '../odata/resource.js';
import { principalOf, type RoutePermission } from './route-permission.js';
import { CLIENT_GONE_MESSAGE, whenClosed } from './reply-closed.js';
import { HttpError } from './errors.js';

export interface ListRouteOptions<TB extends keyof Database, O> {
  /** The list path, e.g. `/v1/tenants`; the CSV export answers `{path}/Export()`. */
  path: string;
  /**
   * What the list holds, in words, plural (`'locations'`, `'Resolution Center requests'`): its
   * operations' names and summaries in the API document (`listLocations`, "List locations").
   */
  title: string;
  resource: Resource;
  /** The contract's schema of one row: every list row is a part of it (a test checks each list against it). */
  row: z.ZodObject;
  permission: RoutePermission;
  /** The caller's rows: the resource table through `scoped(db, user.tenantScope)`. */
  base: (principal: Principal) => SelectQueryBuilder<Database, TB, O>;
  /** The download's file name, e.g. `tenants.csv`. */
  exportFileName: string;
  tags: string[];
  /**
   * The rows hold values computed against the clock (`now()`: a communication becomes overdue
   * while no row changes), which the tables' change counters cannot see: answered untagged, never 304.
   */
  readsClock?: boolean;
  /**
   * The spec calls this list's export with POST (`POST {path}/Export()`): it is answered there too,
   * the list options read from the query string and from a JSON body of the same names.
   */
  postExport?: boolean;
  /**
   * An export without $top holds every row, streamed from the database as it is read (spec 001 §2
   * work units: "CSV export of the page or of all rows"); without it, up to the resource's maxTop
   * (spec 002 §9 "Exports fetch 1000 rows").
   */
  exportsEveryRow?: boolean;
  /**
   * Answers a request that carries `$apply` (the spec's group-by and distinct counts over the
   * list's rows), for the caller, with the request's other options, read through `reader` (the
   * read replica when there is one); without it `$apply` is ignored.
   */
  apply?: (principal: Principal, query: ListQueryInput, signal: AbortSignal, reader: Db) => Promise<unknown>;
}

/**
 * A signal that aborts when the client goes away before its answer is sent (a closed tab, a new
 * filter), already aborted when it left before the route ran. Its reason answers 499 (the client
 * closed the request), which nobody receives and the error handler does not log as a failure.
 */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  whenClosed(reply, () => {
    if (!reply.raw.writableFinished) controller.abort(new HttpError(499, CLIENT_GONE_MESSAGE));
  });
  return controller.signal;
}

/**
 * What starts a formula: `=`, `+`, `-`, `@` and the spellings spreadsheets read as them: the
 * full-width forms an East Asian input method types (＝ ＋ － ＠, turned into = + - @ on entry), the
 * small forms (﹦ ﹢ ﹣ ﹫) and the minus sign (−).
 */
const FORMULA_START = /^'*(\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B\u2212]|[\t\r])/;

/**
 * A cell a spreadsheet would run as a formula (any spelling of FORMULA_START, a tab or return at the
 * start, also after leading spaces or line breaks, which spreadsheets skip) gets a leading apostrophe, so an
 * exported title cannot become a command in the user's spreadsheet. Text that already starts with
 * apostrophes before such a cell gets one too, so the escape can always be undone: a cell that is
 * an apostrophe, any more apostrophes and formula-leading text had its first apostrophe added.
 *
 * @example
 *   spreadsheetSafe('=1+1')  // "'=1+1"
 *   spreadsheetSafe("'=1")   // "''=1" (a note that was written with its own apostrophe)
 *   spreadsheetSafe("'ok")   // "'ok"
 */
export function spreadsheetSafe(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * One cell as the grid shows it: an enum's label (the grid's "unknown" for a value the enum does
 * not have), dates already ISO 8601 text from the database, booleans true/false, JSON as text.
 */
function cellText(value: unknown, column: ExportColumn): string {
  if (value === null || value === undefined) return '';
  const { labels } = column.ref.field;
  if (labels) return Object.hasOwn(labels, String(value)) ? (labels[String(value)] ?? '') : SHELL_MESSAGES.unknownEnum;
  if (typeof value === 'string') return spreadsheetSafe(value);
  if (typeof value === 'object') return spreadsheetSafe(JSON.stringify(value));
  return String(value);
}

/** CSV lines, one per row (each row the JSON array of its cells). */
function csvLines(columns: readonly ExportColumn[], rows: readonly string[]): string {
  return stringify(
    rows.map((row) => (JSON.parse(row) as unknown[]).map((value, index) => cellText(value, columns[index]!))),
  );
}

/** The CSV text: the columns' titles, then one line per row (each row the JSON array of its cells). */
export function toCsv(columns: readonly ExportColumn[], rows: readonly string[]): string {
  return stringify([columns.map((column) => spreadsheetSafe(column.title))]) + csvLines(columns, rows);
}

/** Rows a streamed export reads from its cursor at a time. */
const EXPORT_BATCH_ROWS = 1000;

/** The CSV of every row of a cursor, a batch at a time; the cursor is closed at the end, on a failure and when the reader stops (the client left). */
async function* streamCsv(columns: readonly ExportColumn[], cursor: ListCursor<ListSqlRow>): AsyncGenerator<string> {
  try {
    yield toCsv(
      columns,
      cursor.first.map((r) => r.row),
    );
    for (let rows = await cursor.next(); rows.length > 0; rows = await cursor.next())
      yield csvLines(
        columns,
        rows.map((r) => r.row),
      );
  } finally {
    await cursor.close();
  }
}

/**
 * The list endpoint and its CSV export for one resource: `GET {path}` answers
 * `{"@odata.count", value, "@odata.nextLink"}` (`runListQuery`) and `GET {path}/Export()` the
 * same rows as CSV (the page asked for with $top and $skip or $skiptoken; without $top up to the
 * resource's maximum, or every row, streamed, for a list that `exportsEveryRow`). The export's columns are the grid's (`columns`: field paths and header titles, in order; `parseExportColumns`).
 * Every list answer carries an ETag and is answered 304 when `If-None-Match` names it (list-etag.ts).
 *
 * @example
 *   registerListRoutes(app, db, {
 *     path: '/v1/tenants', title: 'tenants', resource: tenantEntity.resource, row: tenantEntity.contract, permission: 'Tenants:view',
 *     base: (user) => scoped(db, user.tenantScope).selectFrom('tenant').selectAll(),
 *     exportFileName: 'tenants.csv', tags: ['Tenants'],
 *   });
 */
export function registerListRoutes<TB extends keyof Database, O>(
  app: FastifyInstance,
  db: Db,
  options: ListRouteOptions<TB, O>,
): void {
  const {
    path,
    title,
    resource,
    permission,
    base,
    exportFileName,
    tags,
    row,
    readsClock = false,
    postExport = false,
    exportsEveryRow = false,
    apply,
  } = options;
  // The resource and base statement ride along so that tests can walk every list and export by its
  // fields and plan, and whether it reads the clock so that they know which lists are never tagged.
  const config = { permission, listRow: row, listResource: resource, listBase: base, listReadsClock: readsClock };
  const schema = { tags, querystring: listQuerySchema };
  const name = title.replace(
    /(^|\s+)(\S)(\S*)/g,
    (_, _space: string, first: string, rest: string) => first.toUpperCase() + rest.toLowerCase(),
  );

  // The base statement of each caller, compiled once: a principal is cached per token and replaced,
  // never changed, when the caller's user, roles or tenants change.
  const bases = new WeakMap<Principal, ListBase<Database, TB, O>>();
  const baseOf = (user: Principal) => {
    let known = bases.get(user);
    if (!known) bases.set(user, (known = listBase(base(user))));
    return known;
  };

  // Rows are shaped by $select and $expand, so the envelope is described and each row is an object.
  const listAnswer = {
    200: listResponseSchema(z.record(z.string(), z.unknown())),
    304: z.null().describe('Not Modified: nothing the answer tagged by If-None-Match reads has changed'),
  };
  // The answer is JSON text built from the database's own JSON rows: sent as it is, not serialised again.
  app.get(
    path,
    {
      config,
      schema: {
        ...schema,
        response: listAnswer,
        operationId: `list${name}`,
        summary: `List ${title}`,
        description:
          'A page of rows with OData-style options: $filter, $orderby, $top, $skip, $skiptoken, $count, $expand and ' +
          '$select. The answer is tagged (ETag): with If-None-Match it is 304 while nothing it reads has changed.',
      },
    },
    async (request, reply) => {
      const user = principalOf(request);
      const query = request.query as ListQueryInput;
      if (apply && typeof query.$apply === 'string')
        return reply.send(await request.read((reader) => apply(user, query, clientGone(reply), reader)));
      const compiled = compileList(db, resource, baseOf(user), query, user.tenantScope);
      // Polling grids send back the tag of the answer they hold: unchanged data costs no query.
      const tag = readsClock ? undefined : app.listTags.of(compiled, user);
      if (tag && matchesIfNoneMatch(request.headers['if-none-match'], tag))
        return reply.header('ETag', tag).code(304).send();
      const answer = await request.read(async (reader, onReplica) => {
        // An answer read on the replica may be older than the counters the tag names: it goes
        // untagged, so that no poll keeps it past a change.
        if (tag && !onReplica) reply.header('ETag', tag);
        return runCompiledList(reader, compiled, query, { path: request.url.split('?')[0], signal: clientGone(reply) });
      });
      return reply.type('application/json; charset=utf-8').send(answer);
    },
  );

  const exportSchema = {
    tags,
    querystring: exportQuerySchema,
    operationId: `export${name}`,
    summary: `Export ${title} as CSV`,
    description:
      'The rows of the list options, as CSV: the columns named by `columns`, in order, under their titles ' +
      '(also answered at `Export()`).',
  };
  const answerExport = async (request: FastifyRequest, reply: FastifyReply, options: ListQueryInput) => {
    const query = { ...options };
    const everyRow = exportsEveryRow && query.$top === undefined;
    if (query.$top === undefined) query.$top = String(resource.maxTop);
    const parsed = parseListQuery(resource, { ...query, $count: 'false' });
    const columns = parseExportColumns(parsed, query);
    const user = principalOf(request);
    const cells = columns.map((column) => column.ref);
    reply.type('text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="${exportFileName}"`);
    if (everyRow) {
      // A cursor, not one statement: the rows are never all in memory, and the download starts at once.
      const statement = buildListSql(base(user), parsed, user.tenantScope, { cells, paged: false }).rows;
      const cursor = await request.read((reader) =>
        openListCursor(reader, statement, EXPORT_BATCH_ROWS, clientGone(reply)),
      );
      return reply.send(Readable.from(streamCsv(columns, cursor)));
    }
    const result = await request.read((reader) =>
      executeListStatement(
        reader,
        buildListSql(base(user), parsed, user.tenantScope, { cells }).rows,
        clientGone(reply),
      ),
    );
    return reply.send(
      toCsv(
        columns,
        result.rows.map((r) => r.row),
      ),
    );
  };
  app.get(`${path}/Export`, { config, schema: exportSchema }, (request, reply) =>
    answerExport(request, reply, request.query as ListQueryInput),
  );
  if (postExport) {
    app.post(
      `${path}/Export`,
      {
        config,
        schema: {
          ...exportSchema,
          operationId: `export${name}WithBody`,
          summary: `Export ${title} as CSV, the options in the body`,
          // The body holds the list query's own members only: unlike a query string, it carries nothing else.
          body: z.object(exportQuerySchema.shape).optional(),
        },
      },
      (request, reply) =>
        answerExport(request, reply, {
          ...(request.query as ListQueryInput),
          ...((request.body as ListQueryInput | undefined) ?? {}),
        }),
    );
  }
}

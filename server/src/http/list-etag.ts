import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../auth/principal.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { ChangeCounters } from '../db/change-counters.js';
import type { CompiledList } from '../odata/list-query-sql.js';

const principalDigests = new WeakMap<Principal, string>();

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
const json = (value: unknown) => JSON.stringify(value);

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
 * The entity tags of list answers, one per app: signed with its key, and the last tag of each
 * compiled list kept per caller until a counter moves (a polled list asks again and again).
 */
export class ListTags {
  private readonly last = new WeakMap<CompiledList, Map<string, { state: string; tag: string }>>();

  constructor(
    private readonly counters: ChangeCounters,
    /** A keyed digest: the counters are write counts of tables every tenant shares, not to be read back from a tag. */
    private readonly sign: (text: string) => string,
  ) {}

  /**
   * The entity tag of a list answer as the data stands now: a keyed hash of the request's
   * statements (the query, the route's base and the caller's scope, as SQL and parameters:
   * `compiled.digest`), the caller, and the change counters of every table those statements read.
   * Undefined when the counters cannot be trusted now or a table read is not tracked: the list is
   * then answered by its query, untagged.
   *
   * Read before the query runs, a tag can only be older than the rows it is sent with (a write
   * committed in between moves a counter after it): the next poll then gets a 200, never a stale
   * 304. Weak (`W/`), since compression changes the bytes, not the meaning.
   *
   * @example
   *   const compiled = compileList(db, resource, base, request.query, user.tenantScope);
   *   const tag = app.listTags.of(compiled, user);
   *   if (tag && matchesIfNoneMatch(request.headers['if-none-match'], tag)) return reply.code(304).header('ETag', tag).send();
   */
  of(compiled: CompiledList, principal: Principal): string | undefined {
    const values = this.counters.current(compiled.tables);
    if (!values) return undefined;
    const caller = principalDigest(principal);
    const state = values.join(',');
    let byCaller = this.last.get(compiled);
    if (!byCaller || byCaller.size > TAGS_PER_LIST) this.last.set(compiled, (byCaller = new Map()));
    const known = byCaller.get(caller);
    if (known?.state === state) return known.tag;
    const tag = `W/"${this.sign(json([compiled.digest, caller, values])).slice(0, 32)}"`;
    byCaller.set(caller, { state, tag });
    return tag;
  }
}

const TAGS_PER_LIST = 100;

/** Whether an If-None-Match header names `tag` (weak comparison, RFC 9110 §13.1.2). */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const opaque = tag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The tags of list answers, from the tables' change counters (registerChangeCounters). */
    listTags: ListTags;
  }
}

/**
 * Hands the change counters to every list route (registerListRoutes tags its answers with them)
 * and keeps a person's own write visible on their next poll: before a write is answered, this
 * instance reads the counters again, so the list it changed is not answered 304.
 */
export function registerChangeCounters(app: FastifyInstance, counters: ChangeCounters, secretBox: SecretBox): void {
  // Signed with the secrets key, so that instances sharing it make the same tags.
  app.decorate('listTags', new ListTags(counters, (text) => secretBox.sign('list-etag', text)));
  // Callback style: a read passes without a promise.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done(null, payload);
    // A machine (an agent, a script with a tenant token) polls no list: its writes, the packets
    // and reports it posts all the time, do not wait for a read of every counter.
    if (request.machine) return done(null, payload);
    counters.sync().then(
      () => done(null, payload),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });
}

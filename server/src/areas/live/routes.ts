import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LIVE_CHANGE_INTERVAL_MS,
  LIVE_KEEPALIVE_SECONDS,
  LIVE_PATH,
  LIVE_STREAM_MAX_SECONDS,
  LIVE_TOPICS,
  type LiveEvents,
  type LiveTopic,
} from '@cfs/contracts/live';
import type { AppDeps } from '../../app-deps.js';
import type { TenantScope } from '../../auth/tenant-scope.js';
import { tenantCounterGroup, tenantCounterName, type ChangeCounters } from '../../db/change-counters.js';
import { HttpError } from '../../http/errors.js';
import { principalOf } from '../../http/route-permission.js';
import { LIVE_TOPIC_SOURCES } from './topics.js';

const MAX_SECONDS_MESSAGE = `maxSeconds is a whole number of seconds from 0 to ${LIVE_STREAM_MAX_SECONDS}.`;

const topicList = z
  .string()
  .transform((text) => [...new Set(text.split(',').map((topic) => topic.trim()))])
  .pipe(z.array(z.enum(LIVE_TOPICS)).min(1));

/** One server-sent event. */
function event<K extends keyof LiveEvents>(name: K, data: LiveEvents[K]): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Whether a published change of `table` concerns a caller of `scope`. A table counted by tenant
 * group too (agents' packets and devices, rule matches, entity colours: migration 0051) concerns a
 * caller of some tenants only when a group of one of theirs moved, or the group of rows of no
 * tenant; any other table, and every table for a caller of every tenant, whenever it moved.
 */
function changeFilter(
  changes: ChangeCounters,
  scope: TenantScope,
): (table: string, published: ReadonlySet<string>) => boolean {
  if (scope.kind === 'all') return (table, published) => published.has(table);
  const groups = [...new Set([...scope.tenantIds.map(tenantCounterGroup), 'all'])];
  return (table, published) =>
    changes.countsByTenant(table)
      ? groups.some((group) => published.has(tenantCounterName(table, group)))
      : published.has(table);
}

/**
 * A stream's `change` events, each topic told at most once in LIVE_CHANGE_INTERVAL_MS: at once when
 * it was last told longer ago, else with the others held at the end of that time.
 */
function throttledChanges(send: (topics: LiveTopic[]) => void): {
  changed: (topics: readonly LiveTopic[]) => void;
  stop: () => void;
} {
  const lastTold = new Map<LiveTopic, number>();
  const held = new Set<LiveTopic>();
  let timer: NodeJS.Timeout | undefined;
  const dueAt = (topic: LiveTopic) => (lastTold.get(topic) ?? -Infinity) + LIVE_CHANGE_INTERVAL_MS;
  const tellDue = () => {
    const now = Date.now();
    const due = LIVE_TOPICS.filter((topic) => held.has(topic) && dueAt(topic) <= now);
    for (const topic of due) {
      held.delete(topic);
      lastTold.set(topic, now);
    }
    if (due.length > 0) send(due);
    clearTimeout(timer);
    timer = held.size > 0 ? setTimeout(tellDue, Math.min(...[...held].map(dueAt)) - now) : undefined;
  };
  return {
    changed(topics) {
      for (const topic of topics) held.add(topic);
      tellDue();
    },
    stop: () => clearTimeout(timer),
  };
}

/**
 * GET /v1/live: the tab's stream of changes (server-sent events). The tables' change counters
 * (db/change-counters.ts, read by every instance from the database, so a write through any
 * instance is seen) say which tables changed, and for the tables machines write all the time in
 * which tenants' groups (changeFilter); each stream hears of the topics it follows whose tables
 * changed for its caller, and nothing else: no row, no tenant. The screen then asks again through
 * its own call, which applies the caller's permissions and tenants as always. A topic is followed
 * only with its area's view permission.
 */
export const liveRoutes: (deps: AppDeps) => FastifyPluginAsyncZod =
  ({ changes }) =>
  async (app) => {
    const open = new Set<() => void>();
    // A closing instance ends its streams, so it does not wait on them; the tabs open the next elsewhere.
    app.addHook('preClose', async () => {
      for (const end of [...open]) end();
    });

    app.get(
      LIVE_PATH,
      {
        // Open for minutes, reading nothing: it must not hold up the tenant's reads (http/tenant-shares.ts).
        config: { permission: 'signed-in', holdsNoReads: true },
        schema: {
          tags: ['Live'],
          operationId: 'followLiveChanges',
          summary: 'Follow changes to screens as they happen',
          description:
            'A stream of server-sent events (text/event-stream): first `ready` with the topics followed, then a ' +
            '`change` naming the topics whose data changed for the caller, as it happens, from any instance (a ' +
            `topic at most once in ${LIVE_CHANGE_INTERVAL_MS} ms: the changes within that time are told together at ` +
            'its end). Each topic needs its ' +
            "area's view permission (403 naming it without). The stream ends after `maxSeconds` (at most " +
            `${LIVE_STREAM_MAX_SECONDS}; 0 ends it after \`ready\`, a check that it is available); the tab then opens the ` +
            `next. A comment line every ${LIVE_KEEPALIVE_SECONDS} s keeps it open through proxies.`,
          // Any other parameter is refused by name.
          querystring: z.strictObject({
            topics: topicList.describe(`Comma-separated: ${LIVE_TOPICS.join(', ')}`),
            maxSeconds: z
              .string()
              .regex(/^\d{1,6}$/, MAX_SECONDS_MESSAGE)
              .transform(Number)
              .pipe(z.number().max(LIVE_STREAM_MAX_SECONDS, MAX_SECONDS_MESSAGE))
              .default(LIVE_STREAM_MAX_SECONDS),
          }),
        },
      },
      async (request, reply) => {
        const { permissions } = principalOf(request);
        const topics: LiveTopic[] = request.query.topics;
        const refused = topics.filter((topic) => !permissions.has(LIVE_TOPIC_SOURCES[topic].area, 'view'));
        if (refused.length > 0) throw new HttpError(403, `You may not follow ${refused.join(', ')}.`);

        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
        });
        raw.write(event('ready', { topics }));
        const maxMs = request.query.maxSeconds * 1000;
        if (maxMs === 0) {
          raw.end();
          return;
        }
        const hears = changeFilter(changes, principalOf(request).tenantScope);
        const tell = throttledChanges((changed) => raw.write(event('change', { topics: changed })));
        const unsubscribe = changes.onPublished((tables) =>
          tell.changed(
            topics.filter((topic) => LIVE_TOPIC_SOURCES[topic].tables.some((table) => hears(table, tables))),
          ),
        );
        const keepalive = setInterval(() => raw.write(': keepalive\n\n'), LIVE_KEEPALIVE_SECONDS * 1000);
        const end = () => {
          open.delete(end);
          unsubscribe();
          tell.stop();
          clearInterval(keepalive);
          clearTimeout(expiry);
          if (!raw.writableEnded) raw.end();
        };
        const expiry = setTimeout(end, maxMs);
        open.add(end);
        raw.once('close', end);
      },
    );
  };

import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { LIVE_PATH, LIVE_TOPICS, type LiveEvents, type LiveTopic } from '@cfs/contracts/live';
import { apiStream } from './api-client';

/** The page's first stream waits this long: its screens' first calls go first, and it adds nothing to them. */
const FIRST_OPEN_DELAY_MS = 2_000;
/** After a lost stream, the next try waits this long, doubling up to a minute. */
const RETRY_MS = 1_000;
const RETRY_MAX_MS = 60_000;

type Follower = () => void;

/**
 * The tab's one live stream (GET /v1/live): screens that change the moment their data does. It
 * follows the topics of the screens open now, opened again whenever that set changes or the server
 * ends it; each `change` calls the followers of its topics. While it is open with a topic, that topic's screens do not poll (`isLive`); without it
 * (the stream refused, lost or not yet open) they poll as before.
 */
class LiveStream {
  private readonly followers = new Map<LiveTopic, Set<Follower>>();
  private readonly watchers = new Set<() => void>();
  /** The topics of the open stream, once its `ready` has come. */
  private liveTopics: ReadonlySet<LiveTopic> = new Set();
  private controller: AbortController | undefined;
  private openTopics = '';
  private retryMs = RETRY_MS;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private reopenQueued = false;
  private opened = false;

  constructor() {
    // A hidden tab keeps no stream: a browser gives a site six connections over HTTP/1.1, and
    // each open stream holds one. Hidden, its screens do not poll either; shown, it opens again.
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', () => this.queueReopen());
  }

  follow(topic: LiveTopic, follower: Follower): () => void {
    const set = this.followers.get(topic) ?? new Set<Follower>();
    set.add(follower);
    this.followers.set(topic, set);
    this.queueReopen();
    return () => {
      set.delete(follower);
      if (set.size === 0) this.followers.delete(topic);
      this.queueReopen();
    };
  }

  isLive(topic: LiveTopic): boolean {
    return this.liveTopics.has(topic);
  }

  watch(onChange: () => void): () => void {
    this.watchers.add(onChange);
    return () => this.watchers.delete(onChange);
  }

  private setLive(topics: ReadonlySet<LiveTopic>): void {
    this.liveTopics = topics;
    for (const watcher of this.watchers) watcher();
  }

  /** Several screens mount in one render: the stream is opened again once, after them. */
  private queueReopen(): void {
    if (this.reopenQueued) return;
    this.reopenQueued = true;
    queueMicrotask(() => {
      this.reopenQueued = false;
      const wanted =
        document.visibilityState === 'hidden' ? '' : LIVE_TOPICS.filter((topic) => this.followers.has(topic)).join(',');
      if (wanted === this.openTopics && (this.controller || this.retryTimer)) return;
      this.close();
      this.openTopics = wanted;
      if (!wanted) return;
      if (this.opened) {
        void this.open(wanted);
        return;
      }
      this.opened = true;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        if (this.openTopics) void this.open(this.openTopics);
      }, FIRST_OPEN_DELAY_MS);
    });
  }

  private close(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.controller?.abort();
    this.controller = undefined;
    if (this.liveTopics.size > 0) this.setLive(new Set());
  }

  private async open(topics: string): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    let heard = false;
    try {
      const response = await apiStream(LIVE_PATH, { topics }, { signal: controller.signal });
      if (!response.body) throw new Error('The live stream has no body.');
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          heard = this.dispatch(buffer.slice(0, end)) || heard;
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // Lost, refused or closed: polling carries on until it is back.
    }
    if (this.controller !== controller) return;
    this.controller = undefined;
    this.setLive(new Set());
    // A stream the server ended after serving it opens again at once; a failed one after a pause.
    this.retryMs = heard ? RETRY_MS : Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = undefined;
        if (this.openTopics) void this.open(this.openTopics);
      },
      heard ? 0 : this.retryMs,
    );
  }

  /** One event of the stream; true once it is `ready`. */
  private dispatch(block: string): boolean {
    const name = /^event: (.+)$/m.exec(block)?.[1];
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (!name || !data) return false;
    if (name === 'ready') {
      const ready = JSON.parse(data) as LiveEvents['ready'];
      this.setLive(new Set(ready.topics));
      // The changes made before the stream was open were not heard: every follower asks once.
      for (const topic of ready.topics) for (const follower of this.followers.get(topic) ?? []) follower();
      return true;
    }
    if (name === 'change') {
      const change = JSON.parse(data) as LiveEvents['change'];
      for (const topic of change.topics) for (const follower of this.followers.get(topic) ?? []) follower();
    }
    return false;
  }
}

const stream = new LiveStream();
const watchStream = (onChange: () => void) => stream.watch(onChange);

/**
 * Follows `topic` while the component is mounted: each change of it (and the stream's opening)
 * invalidates the queries under `queryKeys` (prefixes), so they are asked again. Answers whether
 * the topic is live: the component's polling may then stop.
 *
 * @example
 *   const live = useLiveQueries('blocks', [listQueryKey(BLOCKS_PATH)]);
 *   useQuery({ ...options, refetchInterval: live ? false : MONITORING_POLLING_MS.blocks });
 */
export function useLiveQueries(topic: LiveTopic | undefined, queryKeys: readonly QueryKey[]): boolean {
  const queryClient = useQueryClient();
  const keys = JSON.stringify(queryKeys);
  useEffect(() => {
    if (!topic) return undefined;
    const prefixes = JSON.parse(keys) as QueryKey[];
    return stream.follow(topic, () => {
      for (const queryKey of prefixes) void queryClient.invalidateQueries({ queryKey });
    });
  }, [topic, keys, queryClient]);
  return useSyncExternalStore(watchStream, () => (topic ? stream.isLive(topic) : false));
}

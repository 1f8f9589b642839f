/**
 * Live screens (GET /v1/live): a signed-in tab keeps one stream open and is told, as it happens,
 * that what one of its screens shows has changed; the screen then asks again through its usual
 * call. While the stream is open the screens do not poll; without it they poll as before.
 */
export const LIVE_PATH = '/v1/live';

/** What a stream can follow: a screen each, readable with its area's view permission. */
export const LIVE_TOPICS = ['blocks', 'devices', 'ruleMatches', 'workUnits'] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/** The longest a stream stays open: the tab then opens the next one, with its current token. */
export const LIVE_STREAM_MAX_SECONDS = 300;

/**
 * A stream tells of a topic at most once in this time: a change is told at once, and the changes
 * that follow within it together at its end, so a screen whose data changes all the time asks
 * again once a second, not at every reading of the counters.
 */
export const LIVE_CHANGE_INTERVAL_MS = 1_000;

/** A comment line sent this often keeps proxies from closing a quiet stream. */
export const LIVE_KEEPALIVE_SECONDS = 15;

/** The stream's events (`event:` names), each with its JSON `data:`. */
export interface LiveEvents {
  /** First: the topics followed. */
  ready: { topics: LiveTopic[] };
  /** What changed: the screens of these topics should ask again. */
  change: { topics: LiveTopic[] };
}

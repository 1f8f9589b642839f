/**
 * What the ingestion suite and its streaming agent (packet-streamer.ts, a child process) say to
 * each other over IPC.
 */

/** What the streamer tells its parent. */
export type StreamerReport =
  /** The portal answered 2xx to POST /v1/packets: these sequence numbers are acknowledged; `stored` of them were new. */
  | { kind: 'acknowledged'; sequences: number[]; stored: number; at: number }
  /** The outbox held nothing at `at`, first seen after a `watch-drain` once it had held items; `largest` is the most it held since the previous drain. */
  | { kind: 'drained'; at: number; largest: number }
  /** After `finish`: the source stopped and everything it made left the outbox. */
  | { kind: 'finished'; made: number };

/** What the parent asks: report the next moment the outbox is empty; stop the source and empty the outbox. */
export type StreamerCommand = { kind: 'watch-drain' } | { kind: 'finish' };

/** Where a numbered packet carries its number (message.Metrics). */
export const SEQUENCE_METRIC = 'Sequence';

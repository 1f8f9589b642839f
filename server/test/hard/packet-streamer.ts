import path from 'node:path';
import type { IngestResult } from '@cfs/contracts/packets';
import { AgentLog } from '../../../agent/src/agent-log.js';
import { Outbox } from '../../../agent/src/outbox.js';
import { OutboxDelivery } from '../../../agent/src/outbox-delivery.js';
import { PortalClient } from '../../../agent/src/portal-client.js';
import { SEQUENCE_METRIC, type StreamerCommand, type StreamerReport } from './packet-stream.js';

/**
 * A device agent that streams numbered packets, run as a child process (fork, IPC) by the
 * ingestion suite: the agent's own outbox on disk, its own delivery (endpoints, backoff) and its
 * own log, which reports its warnings to the portal as device logs like the agent does. Only the
 * source differs: a packet every STREAM_INTERVAL_MS carrying its sequence number (Metrics.Sequence),
 * instead of host metrics every heartbeat.
 *
 * Environment: STREAM_PORTAL (the portal's URL), STREAM_CREDENTIAL and STREAM_DEVICE (the enrolled
 * device), STREAM_DIR (the agent's data folder), STREAM_INTERVAL_MS.
 */

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

function report(message: StreamerReport): void {
  process.send?.(message);
}

/** The portal's acknowledgements as they arrive: every 2xx answer to a batch of packets. */
class RecordingClient extends PortalClient {
  override async json<T>(
    method: 'GET' | 'POST',
    requestPath: string,
    bearer: string,
    body?: unknown,
  ): Promise<T | undefined> {
    const answer = await super.json<T>(method, requestPath, bearer, body);
    if (requestPath === '/v1/packets' && Array.isArray(body)) {
      const sequences = (body as { message: { Metrics: Record<string, number> } }[]).map(
        (packet) => packet.message.Metrics[SEQUENCE_METRIC]!,
      );
      report({
        kind: 'acknowledged',
        sequences,
        stored: (answer as IngestResult | undefined)?.stored ?? 0,
        at: Date.now(),
      });
    }
    return answer;
  }
}

async function main(): Promise<void> {
  const deviceId = env('STREAM_DEVICE');
  const credential = env('STREAM_CREDENTIAL');
  const intervalMs = Number(env('STREAM_INTERVAL_MS'));
  const outbox = new Outbox(path.join(env('STREAM_DIR'), 'outbox.jsonl'));
  const log = new AgentLog(true);
  log.outbox = outbox;
  const delivery = new OutboxDelivery(
    outbox,
    new RecordingClient(env('STREAM_PORTAL'), 'cfs-agent/packet-streamer'),
    () => credential,
    log,
  );

  let producing = true;
  let delivering = true;
  let made = 0;
  const source = (async () => {
    while (producing) {
      made += 1;
      await outbox.append({
        kind: 'packet',
        packet: {
          entityId: deviceId,
          timestamp: new Date().toISOString(),
          message: { Value: made, Properties: { BlockName: 'Numbered stream' }, Metrics: { [SEQUENCE_METRIC]: made } },
        },
      });
      delivery.wake();
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  const deliveryDone = delivery.run(
    () => delivering,
    () => true,
  );

  // The outbox's size over time: the largest backlog, and the first empty outbox after a fault
  // (watched from the parent's command on, once the outbox has held items).
  let largest = 0;
  let watch: 'off' | 'armed' | 'holding' = 'off';
  const watcher = setInterval(() => {
    void outbox.size().then((size) => {
      largest = Math.max(largest, size);
      if (size > 0 && watch === 'armed') watch = 'holding';
      if (size === 0 && watch === 'holding') {
        watch = 'off';
        report({ kind: 'drained', at: Date.now(), largest });
        largest = 0;
      }
    });
  }, 10);

  process.on('message', (command: StreamerCommand) => {
    if (command.kind === 'watch-drain') watch = 'armed';
    if (command.kind === 'finish') {
      producing = false;
      void (async () => {
        await source;
        while ((await outbox.size()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        delivering = false;
        delivery.wake();
        await deliveryDone;
        clearInterval(watcher);
        report({ kind: 'finished', made });
        process.disconnect();
      })();
    }
  });
}

void main();

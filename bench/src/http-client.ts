import http from 'node:http';
import { parentPort } from 'node:worker_threads';

/**
 * The benchmark's HTTP client, run in a worker thread of its own for load: the calls it times are
 * not slowed by the portal's event loop (nor the portal by the client's), as with a real caller.
 * `timedGet` is also called on the portal's own thread, for single calls whose latency is the figure.
 * Asked `{ kind: 'get', url, token }`, it answers `{ ms, status, body }`; asked
 * `{ kind: 'load', url, token, connections, seconds }`, it keeps that many connections busy with
 * the same GET for that long and answers `{ requests, seconds, failures }`.
 */
export type ClientRequest =
  | { kind: 'get'; url: string; token: string }
  | { kind: 'load'; url: string; token: string; connections: number; seconds: number }
  | { kind: 'close' };

const single = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(agent: http.Agent, url: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
  });
}

/** One GET on `agent`, timed from the request to the answer's last byte. */
export async function timedGet(agent: http.Agent, url: string, token: string): Promise<{ ms: number; status: number; body: string }> {
  const start = process.hrtime.bigint();
  const { status, body } = await get(agent, url, token);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, status, body };
}

async function load(url: string, token: string, connections: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const started = process.hrtime.bigint();
  const until = started + BigInt(Math.round(seconds * 1e9));
  let requests = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (process.hrtime.bigint() < until) {
        const { status } = await get(agent, url, token);
        if (status === 200) requests++;
        else failures++;
      }
    }),
  );
  agent.destroy();
  return { requests, failures, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

parentPort?.on('message', (message: ClientRequest) => {
  if (message.kind === 'close') {
    single.destroy();
    parentPort?.close();
    return;
  }
  const answer =
    message.kind === 'get'
      ? timedGet(single, message.url, message.token)
      : load(message.url, message.token, message.connections, message.seconds);
  answer.then(
    (result) => parentPort?.postMessage(result),
    (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
});

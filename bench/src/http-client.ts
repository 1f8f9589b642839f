import http from 'node:http';
import { parentPort } from 'node:worker_threads';

/**
 * The benchmark's HTTP client, run in a worker thread of its own for load: the calls it times are
 * not slowed by the portal's event loop (nor the portal by the client's), as with a real caller.
 * `timedGet` is also called on the portal's own thread, for single calls whose latency is the figure.
 * Asked `{ kind: 'get', url, token }`, it answers `{ ms, status, body, etag }`; asked
 * `{ kind: 'load', url, token, connections, seconds }`, it keeps that many connections busy with
 * the same GET for that long and answers `{ requests, seconds, failures }` (a request answered
 * other than `expect`, 200 by default, is a failure). `ifNoneMatch` makes the GETs conditional.
 * Asked `{ kind: 'post-all', url, token, connections, bodies }`, it POSTs every body (JSON text,
 * made beforehand so that building it is not timed) once, over that many connections, and answers
 * `{ requests, seconds, failures, firstFailure }`.
 */
export type ClientRequest =
  | { kind: 'get'; url: string; token: string; ifNoneMatch?: string }
  | {
      kind: 'load';
      url: string;
      token: string;
      connections: number;
      seconds: number;
      ifNoneMatch?: string;
      expect?: number;
    }
  | { kind: 'post-all'; url: string; token: string; connections: number; bodies: string[] }
  | { kind: 'close' };

const single = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(
  agent: http.Agent,
  url: string,
  token: string,
  ifNoneMatch?: string,
): Promise<{ status: number; body: string; etag: string | undefined }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (ifNoneMatch) headers['if-none-match'] = ifNoneMatch;
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          etag: response.headers.etag,
        }),
      );
    });
    request.on('error', reject);
  });
}

/** One GET on `agent`, timed from the request to the answer's last byte; `ifNoneMatch` makes it conditional. */
export async function timedGet(
  agent: http.Agent,
  url: string,
  token: string,
  ifNoneMatch?: string,
): Promise<{ ms: number; status: number; body: string; etag: string | undefined }> {
  const start = process.hrtime.bigint();
  const { status, body, etag } = await get(agent, url, token, ifNoneMatch);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, status, body, etag };
}

async function load(
  url: string,
  token: string,
  connections: number,
  seconds: number,
  ifNoneMatch?: string,
  expect = 200,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const started = process.hrtime.bigint();
  const until = started + BigInt(Math.round(seconds * 1e9));
  let requests = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (process.hrtime.bigint() < until) {
        const { status } = await get(agent, url, token, ifNoneMatch);
        if (status === expect) requests++;
        else failures++;
      }
    }),
  );
  agent.destroy();
  return { requests, failures, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

function post(agent: http.Agent, url: string, token: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function postAll(url: string, token: string, connections: number, bodies: string[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const started = process.hrtime.bigint();
  let next = 0;
  let requests = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < bodies.length) {
        const answer = await post(agent, url, token, bodies[next++]!);
        if (answer.status === 200) requests++;
        else {
          failures++;
          firstFailure ??= `${answer.status} ${answer.body.slice(0, 200)}`;
        }
      }
    }),
  );
  agent.destroy();
  return { requests, failures, firstFailure, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

parentPort?.on('message', (message: ClientRequest) => {
  if (message.kind === 'close') {
    single.destroy();
    parentPort?.close();
    return;
  }
  const answer =
    message.kind === 'get'
      ? timedGet(single, message.url, message.token, message.ifNoneMatch)
      : message.kind === 'post-all'
        ? postAll(message.url, message.token, message.connections, message.bodies)
        : load(message.url, message.token, message.connections, message.seconds, message.ifNoneMatch, message.expect);
  answer.then(
    (result) => parentPort?.postMessage(result),
    (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
});

import http from 'node:http';
import { parentPort } from 'node:worker_threads';

/**
 * The benchmark's HTTP client, run in a worker thread of its own: the calls it times are not
 * slowed by the portal's event loop (nor the portal by the client's), as with a real caller.
 * Asked `{ url, token }`, it answers `{ ms, status, body }`.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string, token: string): Promise<{ status: number; body: string }> {
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

parentPort?.on('message', (message: { url: string; token: string } | 'close') => {
  if (message === 'close') {
    agent.destroy();
    parentPort?.close();
    return;
  }
  const start = process.hrtime.bigint();
  get(message.url, message.token).then(
    ({ status, body }) => parentPort?.postMessage({ ms: Number(process.hrtime.bigint() - start) / 1e6, status, body }),
    (error: unknown) => parentPort?.postMessage({ ms: 0, status: 0, body: error instanceof Error ? error.message : String(error) }),
  );
});

import net from 'node:net';

/** Outbound calls of operations: a timeout on each, and at most this much of a body read. */
export const MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface HttpOutcome {
  status: number;
  ms: number;
  body: string;
  headers: Headers;
}

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new Error(`The response is larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function httpRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {}): Promise<HttpOutcome> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`Only http and https addresses can be called, not ${parsed.protocol}`);
  const started = performance.now();
  const response = await fetch(parsed, {
    method: options.method ?? 'GET',
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.body === undefined ? {} : { body: options.body }),
    redirect: 'follow',
    signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  });
  const body = options.method === 'HEAD' ? '' : await readCapped(response);
  return { status: response.status, ms: Math.round(performance.now() - started), body, headers: response.headers };
}

/** Opens a TCP connection and closes it: the port answers or it does not. */
export function tcpCheck(host: string, port: number, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<{ ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect({ host, port });
    socket.setTimeout(timeoutMs);
    socket.once('connect', () => {
      socket.destroy();
      resolve({ ms: Math.round(performance.now() - started) });
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`No answer from ${host}:${port} within ${timeoutMs} ms`));
    });
    socket.once('error', (error) => {
      socket.destroy();
      reject(error);
    });
  });
}

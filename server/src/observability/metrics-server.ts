import http from 'node:http';
import type { Db } from '../db/database.js';
import { renderMetrics } from './metrics.js';

/**
 * `/metrics` on a port of its own (METRICS_PORT), for any role — the worker serves no other HTTP.
 * No token: the port is meant for the scraper's network only. Returns its close function.
 */
export async function serveMetrics(
  db: Db,
  host: string,
  port: number,
  onError: (error: unknown) => void,
): Promise<() => Promise<void>> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found.\n');
      return;
    }
    renderMetrics(db).then(
      (text) => response.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }).end(text),
      (error: unknown) => {
        onError(error);
        response.writeHead(503, { 'Content-Type': 'text/plain' }).end('Metrics are not available right now.\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

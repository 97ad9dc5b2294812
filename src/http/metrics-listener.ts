import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from '../metrics/metrics.js';
import { StartupError } from '../start-up-error.js';

/**
 * METRICS_PORT: the same text as `/metrics` without authentication, for a scraper on the
 * same machine. Bound to 127.0.0.1 only; any path but `/metrics` is 404. A port already in
 * use stops the start with a StartupError naming METRICS_PORT.
 */
export async function startMetricsListener(metrics: Metrics, port: number) {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, text }) => response.writeHead(200, { 'content-type': contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(`METRICS_PORT ${port} is in use on 127.0.0.1; choose another METRICS_PORT`)
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

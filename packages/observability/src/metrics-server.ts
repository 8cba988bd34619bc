import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  /** `host:port` it listens on (port 0 in the configuration: the one the system chose). */
  address: string;
  close(): Promise<void>;
}

/**
 * Prometheus's `/metrics` on a listener of its own (`METRICS_HOST`:`METRICS_PORT`, docs/reference/contract.md §6), never on the
 * public port: whatever a proxy in front of the API lets through (`/%6detrics` included), the public routes have no
 * metrics to give. Plain node:http: one route, no framework needed.
 */
export const startMetricsServer = async ({ registry, host, port }: { registry: Registry; host: string; port: number }): Promise<MetricsServer> => {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?', 1)[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable\n'),
    );
  });
  server.listen(port, host);
  await once(server, 'listening');
  const { address, port: bound } = server.address() as AddressInfo;
  return {
    address: `${address.includes(':') ? `[${address}]` : address}:${bound}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};

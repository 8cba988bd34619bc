import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The body of both health endpoints (docs/reference/contract.md §6). */
export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: { postgres: 'up' | 'down'; redis: 'up' | 'down' | 'absent'; draining: boolean };
}

export interface HealthServer {
  /** `host:port` it listens on. */
  address: string;
  close(): Promise<void>;
}

/**
 * `/health/live` and `/health/ready` for a process without an HTTP API of its own (the webhook worker), answering as
 * the API does: live is 200 while the process runs, ready is 503 when `report` says `unavailable`.
 */
export const startHealthServer = async ({
  host,
  port,
  report,
}: {
  host: string;
  port: number;
  report: () => Promise<HealthReport>;
}): Promise<HealthServer> => {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?', 1)[0];
    const answer = (status: number, body: HealthReport) =>
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    if (request.method !== 'GET' || (path !== '/health/live' && path !== '/health/ready')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    report().then(
      (body) => (path === '/health/live' ? answer(200, { ...body, status: 'ok' }) : answer(body.status === 'ok' ? 200 : 503, body)),
      () => answer(path === '/health/live' ? 200 : 503, { status: 'unavailable', checks: { postgres: 'down', redis: 'absent', draining: false } }),
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

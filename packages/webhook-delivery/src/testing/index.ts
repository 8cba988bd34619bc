import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export type Handler = (request: ReceivedRequest, response: ServerResponse, index: number) => void | Promise<void>;

/** A webhook receiver on loopback that records every request and answers through `handler` (204 by default). */
export const startReceiver = async (handler: Handler = (_req, res) => void res.writeHead(204).end()) => {
  const received: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: flatten(req.headers),
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    };
    received.push(request);
    for (const w of waiters.filter((x) => received.length >= x.count)) w.resolve();
    await handler(request, res, received.length - 1);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
    waitFor: (count: number, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (received.length >= count) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} webhook requests within ${timeoutMs} ms, got ${received.length}`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      }),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};

const flatten = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]])),
  );

/** A logger that keeps what it is given, for assertions. */
export const memoryLogger = () => {
  const lines: { level: string; msg: string | undefined; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, msg, obj });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
};

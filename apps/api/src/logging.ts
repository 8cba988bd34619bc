import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Echoes a caller's request id when it is safe to put in a header and a log line; otherwise makes one. */
export const requestIdOf = (req: IncomingMessage): string => {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
};

/**
 * Removes the discouraged `apiKey` query parameter from a logged URL. Whatever its spelling or encoding, the value
 * never reaches a log line (CONTRACT.md §3).
 */
export const redactUrl = (url: string): string => {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // a malformed escape keeps the raw name, which is then compared as is
      }
      return decoded.toLowerCase() === 'apikey' ? `${name}=[REDACTED]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
};

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The request as it appears in `incoming request` lines: no headers at all, and the URL redacted. */
const serializeRequest = (req: LoggedRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

export const createLogger = (level: LogLevel, stream?: DestinationStream): Logger =>
  pino(
    {
      level,
      // Belt and braces: should headers or a raw URL ever be logged, the credentials are still hidden.
      redact: {
        paths: [
          'req.headers["x-api-key"]',
          'req.headers.authorization',
          'req.query.apiKey',
          'headers["x-api-key"]',
          'query.apiKey',
          'apiKey',
        ],
        censor: '[REDACTED]',
      },
      serializers: { req: serializeRequest },
    },
    stream ?? pino.destination(1),
  );

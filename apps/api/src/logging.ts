import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from '@garage/config';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Echoes a caller's request id when it is safe to put in a header and a log line; otherwise makes one. */
export const requestIdOf = (req: IncomingMessage): string => {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
};

/**
 * Where a path may end: at `?`, and at `;` or `#`, which find-my-way treats as delimiters when configured to. A key
 * sent as `;apiKey=` or `#apiKey=` is then still a secret the client meant to send, so it is redacted like `?apiKey=`.
 */
const PATH_END = /[?;#]/;
/** Query parameters are split at `&`; `;`, `#` and `?` are cut at as well, so that nothing shaped like a key survives. */
const PARAM_SEPARATOR = /([&;#?])/;
/** What a query must contain for one of its parameter names to decode to `apikey`. */
const MAY_NAME_A_KEY = /%|apikey/i;
/** A quote token is the secret of its customer: its paths are logged without it. */
const QUOTE_TOKEN_PATH = /^(\/+api\/+public\/+quotes\/+)[^/]+/;

const decodedName = (pair: string): string => {
  const name = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // a malformed escape keeps the raw name, which is then compared as is
    return name;
  }
};

const splitUrl = (url: string): { path: string; end: number } => {
  const end = url.search(PATH_END);
  return { path: (end === -1 ? url : url.slice(0, end)).replace(QUOTE_TOKEN_PATH, '$1[redacted]'), end };
};

/** The path of a URL as the router sees it, with any quote token redacted: what a message may name. */
export const redactedPath = (url: string): string => splitUrl(url).path;

/**
 * The URL as it may be logged (CONTRACT.md §1): the value of every `apiKey` parameter, whatever its spelling (case,
 * percent-encoded name) or separator, replaced by `[REDACTED]`, and the quote token of quote paths by `[redacted]`.
 * It splits on every delimiter a router or a query parser might honour, rather than at the first `?` only.
 */
export const redactUrl = (url: string): string => {
  const { path, end } = splitUrl(url);
  if (end === -1) return path;
  // Every request is logged: a query with no `%` escape and no "apikey" in any spelling cannot name the key, and most
  // queries are such (`?limit=100&cursor=…`), so they are kept as they are without being split and decoded.
  if (!MAY_NAME_A_KEY.test(url.slice(end + 1))) return `${path}${url.slice(end)}`;
  const rest = url
    .slice(end + 1)
    .split(PARAM_SEPARATOR)
    .map((part) => (decodedName(part).toLowerCase() === 'apikey' ? `${part.split('=', 1)[0]}=[REDACTED]` : part))
    .join('');
  return `${path}${url[end]}${rest}`;
};

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The request as it appears in the `request completed` line: no headers at all, and the URL redacted. */
const serializeRequest = (req: LoggedRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

/**
 * JSON lines for machines; readable, coloured lines when a person runs `pnpm start` on a terminal (stdout is a TTY).
 */
export const createLogger = (level: LogLevel, stream?: DestinationStream): Logger =>
  pino(
    {
      level,
      // Belt and braces: should a line ever carry headers, a query or a key, the credentials are still hidden. No path
      // under `req`: its serializer keeps no headers and no query, and a redaction path under it would run on every
      // request line for nothing (some 5 % of a cached page's CPU, issue 18).
      redact: {
        paths: ['headers["x-api-key"]', 'headers.authorization', 'query.apiKey', 'apiKey'],
        censor: '[REDACTED]',
      },
      serializers: { req: serializeRequest },
    },
    stream ?? (process.stdout.isTTY ? pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) : pino.destination(1)),
  );

/**
 * One log line per request (issue 18): Fastify's `incoming request` line doubled the logging cost of every request;
 * the `request completed` line names the request itself (its redacted URL), with the status and the duration.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from '@garage/config';
import { traceLogMixin } from '@garage/observability/tracing';

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
  // Every request is logged, and most URLs hold neither a quote path nor a query that could name the key: they are
  // logged as they came, after two scans, without being split (issue 18).
  if (!url.includes('quotes') && !MAY_NAME_A_KEY.test(url)) return url;
  const { path, end } = splitUrl(url);
  if (end === -1) return path;
  // A quote path whose query cannot name the key (no `%` escape, no "apikey" in any spelling) keeps its query as it is.
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
 * Log lines are written to stdout in batches of this many bytes (some hundred request lines): a write costs the main
 * thread some 27,000 instructions, which batches of 4 KiB still spread over only twelve lines (issue 18)…
 */
export const LOG_BATCH_BYTES = 32 * 1024;
/** …in one write each (sonic-boom's own bound on a write is 16 KiB). */
const LOG_WRITE_MAX_BYTES = 64 * 1024;
/** …or of whatever this many milliseconds gathered, so that a quiet instance's lines still show at once. */
export const LOG_FLUSH_INTERVAL_MS = 250;

/**
 * Where JSON lines go: stdout, written in batches. Written one line at a time, every request cost a write handed to
 * libuv's thread pool and the wake-ups of its threads, some 5 % of a cached page's CPU (issue 18). Batches are flushed
 * at least every `LOG_FLUSH_INTERVAL_MS` and synchronously when the process exits, however it exits short of SIGKILL
 * (pino's exit hook); a killed process loses at most that interval's lines. Each line is handed over as its bytes:
 * given text, sonic-boom appends it to the batch's string and measures the whole batch again on every line.
 */
export const stdoutDestination = (): DestinationStream => {
  const batches = pino.destination({
    dest: 1,
    sync: false,
    minLength: LOG_BATCH_BYTES,
    maxWrite: LOG_WRITE_MAX_BYTES,
    periodicFlush: LOG_FLUSH_INTERVAL_MS,
    contentMode: 'buffer',
  });
  // sonic-boom's types know its text mode only.
  return { write: (line: string) => void batches.write(Buffer.from(line) as unknown as string) };
};

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
      mixin: traceLogMixin(),
    },
    stream ?? (process.stdout.isTTY ? pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }) : stdoutDestination()),
  );

/** Longer strings go to JSON.stringify at once: the scan below would only delay it. */
const SHORT_STRING = 256;

/**
 * `JSON.stringify(value)` for a string, quoted as it is when it needs no escape: printable ASCII without `"` or `\`,
 * which request lines nearly always are (paths, hosts, addresses). JSON.stringify cost some 150 ns a string, four
 * strings a request line (issue 18); anything else still goes through it.
 */
export const jsonString = (value: string): string => {
  if (value.length > SHORT_STRING) return JSON.stringify(value);
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c || code > 0x7e) return JSON.stringify(value);
  }
  return `"${value}"`;
};

/** `"name":value` for a JSON object, or nothing for `undefined`, which JSON leaves out. */
const member = (name: string, value: string | number | undefined): string =>
  value === undefined ? '' : `,"${name}":${typeof value === 'string' ? jsonString(value) : JSON.stringify(value)}`;

/** pino's own record of a logger: where its lines go, and its bindings (pid, hostname, reqId) as JSON members. */
interface PinoInternals {
  [pino.symbols.streamSym]: DestinationStream;
  [pino.symbols.chindingsSym]: string;
}

/**
 * The `request completed` line, member for member what `log.info({ req, res, responseTime }, 'request completed')` writes
 * with this module's settings (pino's level and time members, the logger's bindings, `serializeRequest`), written from
 * a template instead of through pino's generic serialiser: every request writes one, and pino's walk of the object
 * and its serialisers took half of what logging cost a cached page (issue 18). logging.test.ts compares the two.
 */
export const requestCompletedLine = (log: Logger, request: LoggedRequest, statusCode: number, responseTime: number): string => {
  const bindings = (log as unknown as PinoInternals)[pino.symbols.chindingsSym];
  // The members of `serializeRequest`, in its order, without the object.
  return (
    `{"level":${pino.levels.values.info},"time":${Date.now()}${bindings},"req":{"method":${jsonString(request.method)}` +
    `${member('url', redactUrl(request.url))}${member('host', request.host)}${member('remoteAddress', request.ip)}` +
    `${member('remotePort', request.socket?.remotePort)}},` +
    `"res":{"statusCode":${statusCode}},"responseTime":${responseTime},"msg":"request completed"}\n`
  );
};

/**
 * One log line per request (issue 18): Fastify's `incoming request` line doubled the logging cost of every request;
 * the `request completed` line names the request itself (its redacted URL), with the status and the duration.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
      return;
    }
    const log = reply.log as Logger;
    if (!log.isLevelEnabled('info')) return;
    (log as unknown as PinoInternals)[pino.symbols.streamSym].write(requestCompletedLine(log, request, reply.statusCode, reply.elapsedTime));
  }
}

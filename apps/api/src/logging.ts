import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import type pretty from 'pino-pretty';
import type { LogLevel } from '@garage/config';
import { LOG_REDACTION } from '@garage/observability';
import { traceLogMixin } from '@garage/observability/tracing';
import { clientAddress } from './http/client-address.js';
import { newRequestId } from './http/request-ids.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Echoes a caller's request id when it is safe to put in a header and a log line; otherwise makes one. */
export const requestIdOf = (req: IncomingMessage): string => {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : newRequestId();
};

/**
 * Where a path may end: at `?`, and at `;` or `#`, which find-my-way treats as delimiters when configured to. A key
 * sent as `;apiKey=` or `#apiKey=` is then still a secret the client meant to send, so it is redacted like `?apiKey=`.
 */
const PATH_END = /[?;#]/;
/** Where the router ends a path (find-my-way, without the semicolon delimiter): what follows is the query. */
export const ROUTED_PATH_END = /[?#]/;
/** Query parameters are split at `&`; `;`, `#` and `?` are cut at as well, so that nothing shaped like a key survives. */
const PARAM_SEPARATOR = /[&;#?]/;
/** A quote token is the secret of its customer: its paths are named without it. */
const QUOTE_TOKEN_PATH = /^(\/+api\/+public\/+quotes\/+)[^/]+/;

/** Route parameters that are secrets: their values are never logged. */
const SECRET_PARAMS = new Set(['token']);
/** What stands for the path of a request that matched no route: the router did not say what any part of it is. */
export const UNMATCHED_PATH = '[unmatched]';

/** What makes a name need decoding: a percent escape or a `+` standing for a space. */
const ENCODED = /[%+]/;

export const decodedName = (pair: string): string => {
  const end = pair.indexOf('=');
  const name = end === -1 ? pair : pair.slice(0, end);
  // Most names are plain words: no decoding, no exception handler.
  if (!ENCODED.test(name)) return name;
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // a malformed escape keeps the raw name, which the shape test then refuses
    return name;
  }
};

/**
 * What a parameter name may look like to be logged: the API's names are short words (`limit`, `updatedSince`,
 * `garageSlug`), with no digits and no other characters, shorter than a key (32) or a quote token. Anything else
 * (a key sent as a name, `apiKey:<key>`, a name with a NUL) is written `[redacted]`.
 */
const PARAM_NAME = /^[A-Za-z_][A-Za-z_.[\]-]{0,19}$/;

/** What stands for a query parameter name that may itself carry a secret. */
export const REDACTED_NAME = '[redacted]';

/** The path of a URL as the router sees it, with any quote token redacted: what a response body may name. */
export const redactedPath = (url: string): string => {
  const end = url.search(PATH_END);
  return (end === -1 ? url : url.slice(0, end)).replace(QUOTE_TOKEN_PATH, '$1[redacted]');
};

/** A query parameter's name, decoded, as it may be logged, stored or echoed in an error: itself, or `[redacted]`. */
export const shownName = (name: string): string => (PARAM_NAME.test(name) ? name : REDACTED_NAME);

/** The name of a query parameter (`name=value`, as sent) as it may be logged or stored. */
const loggedName = (pair: string): string => shownName(decodedName(pair));

/**
 * A query as it may be logged (docs/reference/contract.md §1): the names of its parameters, never their values, so
 * that a key sent under any name (`apiKey` in any spelling, `api_key`, `key`, `apiKey[]`, `apiKey%00`…) stays out of
 * the log. Split on every delimiter a query parser might honour, not at `&` only.
 */
export const loggedQuery = (query: string): string =>
  query
    .split(PARAM_SEPARATOR)
    .filter((part) => part !== '')
    .map(loggedName)
    .join('&');

/** The route the router matched, as Fastify describes it. */
interface MatchedRoute {
  routeOptions?: { url?: string };
  params?: unknown;
}

/**
 * The path the router matched, told by the route's pattern and its parameters, secret ones redacted; not by the URL
 * as the client spelled it (a percent-encoded letter, an absolute-form target, a doubled slash), which a pattern
 * over the raw URL would have to foresee. A wildcard keeps its `*`: what it matched can be anything.
 */
const matchedPath = (pattern: string, params: unknown): string =>
  pattern.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
    if (name === undefined) return '*';
    if (SECRET_PARAMS.has(name)) return '[redacted]';
    const value = (params as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' ? value : whole;
  });

/**
 * The path as it may be logged or stored, from the pattern of the route matched (none: `[unmatched]`) and its
 * parameters: the matched path with its secret parameters redacted.
 */
export const loggedPathOf = (pattern: string | undefined, params: unknown): string =>
  pattern === undefined ? UNMATCHED_PATH : matchedPath(pattern, params);

/** The path of a request as it may be logged or stored (`loggedPathOf`). */
export const loggedPath = (request: MatchedRoute): string => loggedPathOf(request.routeOptions?.url, request.params);

/** The URL as it may be logged: the matched path, or `[unmatched]`, then the names of the query's parameters. */
export const loggedUrl = (request: { url: string } & MatchedRoute): string => {
  const path = loggedPath(request);
  const end = request.url.search(ROUTED_PATH_END);
  return end === -1 ? path : `${path}${request.url[end]}${loggedQuery(request.url.slice(end + 1))}`;
};

interface LoggedRequest extends MatchedRoute {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** The request as it appears in a log line: no headers at all, and the URL as `loggedUrl` gives it. */
const serializeRequest = (req: LoggedRequest) => ({
  method: req.method,
  url: loggedUrl(req),
  host: req.host,
  remoteAddress: clientAddress(req),
  remotePort: req.socket?.remotePort,
});

/** Lines wait in memory until this many bytes have gathered… */
export const LOG_BUFFER_BYTES = 4096;
/** …or this many milliseconds have passed, so that a quiet instance's lines still show at once. */
export const LOG_FLUSH_INTERVAL_MS = 250;

/**
 * Where JSON lines go: stdout, written in batches rather than one write per line. pino flushes the batch
 * synchronously when the process exits, however it exits short of SIGKILL; a killed process loses at most the
 * lines of the last `LOG_FLUSH_INTERVAL_MS`.
 */
export const stdoutDestination = (): DestinationStream =>
  pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_INTERVAL_MS });

/**
 * pino-pretty, loaded where a person reads the log on a terminal only: a process that writes JSON lines does not keep
 * its ~1 MB of heap, which V8 would mark again at every full collection.
 */
const prettyStream = (): DestinationStream =>
  (createRequire(import.meta.url)('pino-pretty') as typeof pretty)({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });

/**
 * JSON lines for machines; readable, coloured lines when a person runs `pnpm start` on a terminal (stdout is a TTY).
 */
export const createLogger = (level: LogLevel, stream?: DestinationStream): Logger =>
  pino(
    {
      level,
      // Belt and braces: should a line ever carry headers, a query or a key, the credentials are still hidden. `req`
      // needs no path here: its serializer keeps no headers, and redacts the query itself.
      redact: LOG_REDACTION,
      serializers: { req: serializeRequest },
      mixin: traceLogMixin(),
    },
    stream ?? (process.stdout.isTTY ? prettyStream() : stdoutDestination()),
  );

/**
 * The mode a request was served in (docs/reference/contract.md §9): `test` for a test key, else `live` (requests
 * without a key included). Read where the auth plugin may not be registered, hence the optional principal.
 */
export const requestMode = (request: FastifyRequest): 'live' | 'test' =>
  (request as { principal?: { mode: 'live' | 'test' } | null }).principal?.mode ?? 'live';

/**
 * One log line per request: the `request completed` line names the request itself (method, logged URL, address),
 * with its status and duration, so Fastify's separate `incoming request` line would only double the volume.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  /** Fastify's own 404 handler (where the app's does not apply) names the raw URL: the request line says enough. */
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const mode = requestMode(request);
    if (error) {
      reply.log.error({ req: request, res: reply, mode, err: error, responseTime: reply.elapsedTime }, 'request errored');
      return;
    }
    reply.log.info({ req: request, res: reply, mode, responseTime: reply.elapsedTime }, 'request completed');
  }
}

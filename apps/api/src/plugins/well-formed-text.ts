import { ValidationError, type ErrorDetail } from '@garage/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pointerSegment, segmentName } from '../http/json-pointer.js';
import { shownName } from '../logging.js';

/**
 * NUL, or a surrogate without its pair. Postgres cannot store NUL; an unpaired surrogate would be stored as U+FFFD,
 * which is not what the client sent.
 */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Whether `text` holds a NUL or any surrogate at all: one scan, and false for nearly every string a request brings. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what it looks for
const MAY_BE_ILL_FORMED = /[\u0000\ud800-\udfff]/;
const isIllFormed = (text: string) =>
  MAY_BE_ILL_FORMED.test(text) && (text.includes('\u0000') || UNPAIRED_SURROGATE.test(text));

const MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

/**
 * How deep a request's JSON may nest. The contract's bodies nest three levels at most; a body of `[[[[…` thousands
 * deep is an attack on whatever walks it (a recursive walk ends in a RangeError), refused at once.
 */
export const MAX_NESTING_DEPTH = 32;

/** The JSON pointer to where a walk stands: the names and indexes it went through. */
const pointerTo = (segments: readonly string[]): string => segments.map((segment) => `/${pointerSegment(segment)}`).join('');

/**
 * Adds to `found` every string (or property name) under `value` that is not well-formed text, in document order.
 * Nesting deeper than `MAX_NESTING_DEPTH` leaves that one detail in `found` and answers false, ending the walk.
 * Recursive, but never more than `MAX_NESTING_DEPTH` + 1 calls deep; a pointer is written only for what it names, so
 * that the walk every request takes allocates next to nothing.
 */
const walk = (value: unknown, segments: string[], found: ErrorDetail[]): boolean => {
  if (typeof value === 'string') {
    if (isIllFormed(value)) found.push({ path: pointerTo(segments), message: MESSAGE });
    return true;
  }
  if (typeof value !== 'object' || value === null) return true;
  if (segments.length >= MAX_NESTING_DEPTH) {
    found.splice(0, found.length, { path: pointerTo(segments), message: `must not nest deeper than ${MAX_NESTING_DEPTH} levels` });
    return false;
  }
  const isArray = Array.isArray(value);
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    segments.push(name);
    const deeper = isArray || !isIllFormed(name);
    if (!deeper) found.push({ path: pointerTo(segments), message: MESSAGE });
    const walked = !deeper || walk((value as Record<string, unknown>)[name], segments, found);
    segments.pop();
    if (!walked) return false;
  }
  return true;
};

/**
 * JSON pointers to every string (or property name) in `value` that is not well-formed text, in document order; or a
 * single detail naming where `value` nests deeper than `MAX_NESTING_DEPTH`.
 */
const illFormedPaths = (value: unknown): ErrorDetail[] => {
  const found: ErrorDetail[] = [];
  walk(value, [], found);
  return found;
};

/** A percent-encoded byte of 0x80 or more: only then can a query string hold bytes that are not UTF-8. */
const NON_ASCII_BYTE = /%[89a-f][0-9a-f]/i;

const decoded = (text: string): string | null => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
};

/**
 * Query parameters whose percent-encoded bytes are not UTF-8, such as an encoded lone surrogate (`%ED%A0%80`). The
 * query parser keeps such a value as its literal `%…` text, which a filter would then search for: refused instead,
 * as the same text in a body is.
 */
const undecodableQueryPaths = (url: string): ErrorDetail[] => {
  const start = url.indexOf('?');
  if (start === -1 || !NON_ASCII_BYTE.test(url.slice(start))) return [];
  const found: ErrorDetail[] = [];
  for (const pair of url.slice(start + 1).split('&')) {
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decoded(rawName);
    if (name === null || (equals !== -1 && decoded(pair.slice(equals + 1)) === null)) {
      found.push({ path: `/${pointerSegment(name ?? rawName)}`, message: MESSAGE });
    }
  }
  return found;
};

/**
 * A query's detail as the error names it: its parameter's name as a log line writes it (`shownName`), so that a key
 * sent as a name, with a NUL or a stray byte added, does not reach the error body the request log stores.
 */
const shownQueryDetail = (detail: ErrorDetail): ErrorDetail => {
  const [, first = '', ...rest] = detail.path.split('/');
  return { ...detail, path: ['', pointerSegment(shownName(segmentName(first))), ...rest].join('/') };
};

/**
 * What is ill-formed in a query, its names as the error names them. Every request asks: when nothing is, no detail,
 * pointer or joined list is made.
 */
const queryDetails = (url: string, query: unknown): ErrorDetail[] => {
  const undecodable = undecodableQueryPaths(url);
  const illFormed = illFormedPaths(query);
  if (undecodable.length === 0 && illFormed.length === 0) return illFormed;
  return [...undecodable, ...illFormed].map(shownQueryDetail);
};

const PARTS = [
  ['params', 'Invalid path parameters'],
  ['query', 'Invalid query string'],
  ['body', 'Invalid request body'],
] as const;

/**
 * docs/reference/contract.md §1: text holding NUL or an unpaired surrogate, and JSON nested deeper than
 * `MAX_NESTING_DEPTH`, are refused with 400 VALIDATION_FAILED naming the field, on every route and whatever the route's
 * schema says, before validation and the handler (so nothing is stored).
 * It runs after the onRequest hooks on purpose: authentication and rate limits see the request first, and the only
 * value they read from the query before this point, `garageSlug`, is checked against the slug rules by the domain.
 */
export default fp(
  async (app: FastifyInstance) => {
    // A callback hook: it never waits, and every request runs it.
    app.addHook('preValidation', (request, _reply, done) => {
      for (const [part, message] of PARTS) {
        const details = part === 'query' ? queryDetails(request.url, request.query) : illFormedPaths(request[part]);
        if (details.length > 0) return done(new ValidationError(message, details));
      }
      done();
    });
  },
  { name: 'well-formed-text' },
);

import { ValidationError, type ErrorDetail } from '@garage/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const pointerSegment = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

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

/** JSON pointers to every string (or property name) in `value` that is not well-formed text. */
const illFormedPaths = (value: unknown, path = '', found: ErrorDetail[] = []): ErrorDetail[] => {
  if (typeof value === 'string') {
    if (isIllFormed(value)) found.push({ path, message: MESSAGE });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => illFormedPaths(item, `${path}/${index}`, found));
  } else if (typeof value === 'object' && value !== null) {
    for (const [name, item] of Object.entries(value)) {
      const at = `${path}/${pointerSegment(name)}`;
      if (isIllFormed(name)) found.push({ path: at, message: MESSAGE });
      else illFormedPaths(item, at, found);
    }
  }
  return found;
};

const PARTS = [
  ['params', 'Invalid path parameters'],
  ['query', 'Invalid query string'],
  ['body', 'Invalid request body'],
] as const;

/**
 * docs/reference/contract.md §1: text holding NUL or an unpaired surrogate is refused with 400 VALIDATION_FAILED naming the field,
 * on every route and whatever the route's schema says, before validation and the handler (so nothing is stored).
 * It runs after the onRequest hooks on purpose: authentication and rate limits see the request first, and the only
 * value they read from the query before this point, `garageSlug`, is checked against the slug rules by the domain.
 */
export default fp(
  async (app: FastifyInstance) => {
    // A callback hook: it never waits, and every request runs it.
    app.addHook('preValidation', (request, _reply, done) => {
      for (const [part, message] of PARTS) {
        const details = illFormedPaths(request[part]);
        if (details.length > 0) return done(new ValidationError(message, details));
      }
      done();
    });
  },
  { name: 'well-formed-text' },
);

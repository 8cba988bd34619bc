import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { decodedName, loggedPath, ROUTED_PATH_END } from '../logging.js';
import { versionOf } from './api-versions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The error body sent to a key-authenticated request, kept for its record. */
    sentErrorBody: string | null;
  }
}

/** The names of the query parameters, each once, in order; their values are never kept (they may hold a key). */
export const queryParameterNames = (url: string): string[] => {
  const end = url.search(ROUTED_PATH_END);
  if (end === -1) return [];
  const names = new Set<string>();
  for (const pair of url.slice(end + 1).split('&')) {
    const name = decodedName(pair);
    if (name !== '') names.add(name);
  }
  return [...names];
};

const NO_ERROR = { body: null, code: null } as const;

const errorBodyOf = (text: string | null): { body: unknown; code: string | null } => {
  if (text === null) return NO_ERROR;
  try {
    const body = JSON.parse(text) as { code?: unknown };
    return { body, code: typeof body.code === 'string' ? body.code : null };
  } catch {
    return NO_ERROR;
  }
};

/**
 * Hands a record of every key-authenticated request to the request recorder (docs/reference/contract.md §10): what
 * the request asked for and what it got, the error body included, never a request or success body. The hook only
 * builds an object and buffers it; the recorder writes off the request path.
 */
export default fp(
  async (app: FastifyInstance) => {
    const recorder = app.requestRecorder;
    if (recorder === null) return;
    app.decorateRequest('sentErrorBody', null);
    // Callback hooks: they run on every request, and an async hook costs a promise each time.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode >= 400 && request.principal !== null && typeof payload === 'string') request.sentErrorBody = payload;
      done(null, payload);
    });
    app.addHook('onResponse', (request: FastifyRequest, reply, done) => {
      const principal = request.principal;
      if (principal === null) {
        done();
        return;
      }
      const { body, code } = errorBodyOf(request.sentErrorBody);
      const durationMs = Math.round(reply.elapsedTime);
      const path = loggedPath(request);
      recorder.add({
        integrationId: principal.integrationId,
        mode: principal.mode,
        requestId: request.id,
        receivedAt: new Date(Date.now() - durationMs),
        method: request.method,
        route: request.routeOptions.url ?? path,
        path,
        queryParameters: queryParameterNames(request.url),
        status: reply.statusCode,
        errorCode: code,
        apiVersion: versionOf(request),
        durationMs,
        errorBody: body,
      });
      done();
    });
  },
  { name: 'request-log', dependencies: ['request-recorder', 'auth', 'api-versions'] },
);

import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { versionOf } from './api-versions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The error body sent to a key-authenticated request, kept for its record. */
    sentErrorBody: string | null;
  }
}

/**
 * Hands a record of every key-authenticated request to the request recorder (docs/reference/contract.md §10): what
 * the request asked for and what it got, the error body included, never a request or success body. The hook only
 * keeps what the request already holds (`ServedRequest`); the recorder makes the records and writes them off the
 * request path.
 */
export default fp(
  async (app: FastifyInstance) => {
    const recorder = app.requestRecorder;
    if (recorder === null) return;
    app.decorateRequest('sentErrorBody', null);
    // Callback hooks: they run on every request, and an async hook costs a promise each time. Requests to routes of
    // plugins registered before auth (the documentation's pages) have no `principal` at all, not even null.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode >= 400 && request.principal && typeof payload === 'string') request.sentErrorBody = payload;
      done(null, payload);
    });
    app.addHook('onResponse', (request: FastifyRequest, reply, done) => {
      const principal = request.principal;
      if (!principal) {
        done();
        return;
      }
      const durationMs = Math.round(reply.elapsedTime);
      recorder.add({
        integrationId: principal.integrationId,
        mode: principal.mode,
        requestId: request.id,
        receivedAt: Date.now() - durationMs,
        method: request.method,
        route: request.routeOptions.url,
        params: request.params,
        url: request.url,
        status: reply.statusCode,
        errorText: request.sentErrorBody,
        apiVersion: versionOf(request),
        durationMs,
      });
      done();
    });
  },
  { name: 'request-log', dependencies: ['request-recorder', 'auth', 'api-versions'] },
);

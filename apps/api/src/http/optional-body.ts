import type { FastifyInstance } from 'fastify';

/**
 * For a scope whose POST bodies are optional (quote decisions, appointment cancellation): a POST without a body, or
 * with an empty one even when sent as `application/json` (which Fastify's parser would reject), is validated as `{}`.
 * Only the calling plugin's scope parses JSON this way.
 */
export const acceptOptionalBodies = (app: FastifyInstance): void => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') done(null, undefined);
    else parseJson(request, text, done);
  });
  app.addHook('preValidation', async (request) => {
    if (request.method === 'POST' && request.body === undefined) request.body = {};
  });
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendPage } from '../http/rendered-page.js';
import { garageOf } from '../plugins/auth.js';
import { errorResponses, NotModified } from '../schemas/error.js';
import { apiKeyQueryField, listQueryFields, Page, pageRequest } from '../schemas/list.js';
import { StockItem } from '../schemas/product.js';

const stockRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/stock',
    {
      onRequest: app.requireKey('stock'),
      config: { etag: true, listCache: 'stock' },
      schema: {
        operationId: 'listStock',
        summary: 'List stock levels',
        description: 'One item per product, ordered by (updatedAt, productId). Needs a key with syncStock.',
        tags: ['catalog'],
        security: [{ apiKey: [] }],
        querystring: Type.Object(
          { ...listQueryFields, sku: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), ...apiKeyQueryField },
          { additionalProperties: false },
        ),
        response: { 200: Page(StockItem), 304: NotModified, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) =>
      sendPage(reply, await app.useCases.listStock({ garageId: garageOf(request), ...pageRequest(request.query), sku: request.query.sku ?? null })),
  );
};

export default stockRoutes;

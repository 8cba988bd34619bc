import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendPage } from '../http/rendered-page.js';
import { garageOf } from '../plugins/auth.js';
import { errorResponses, NotModified } from '../schemas/error.js';
import { apiKeyQueryField, listQueryFields, Page, pageRequest } from '../schemas/list.js';
import { Product } from '../schemas/product.js';

const productRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products',
    {
      onRequest: app.requireKey('catalog'),
      config: { etag: true, listCache: 'products' },
      schema: {
        operationId: 'listProducts',
        summary: 'List products',
        description:
          'Ordered by (updatedAt, id). Without updatedSince only active products are listed; with it, inactive ones too (active: false), so that a sync learns of removals. Needs a key with syncCatalog.',
        tags: ['catalog'],
        security: [{ apiKey: [] }],
        querystring: Type.Object(
          { ...listQueryFields, sku: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), ...apiKeyQueryField },
          { additionalProperties: false },
        ),
        response: { 200: Page(Product), 304: NotModified, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) =>
      sendPage(reply, await app.useCases.listProducts({ garageId: garageOf(request), ...pageRequest(request.query), sku: request.query.sku ?? null })),
  );
};

export default productRoutes;

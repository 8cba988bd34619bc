import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SLUG, SLUG_MAX_LENGTH } from '@garage/domain';
import { Type } from 'typebox';
import { sendPage } from '../http/rendered-page.js';
import { garageOf } from '../plugins/auth.js';
import { Uuid } from '../schemas/common.js';
import { errorResponses, NotModified } from '../schemas/error.js';
import { apiKeyQueryField, listQueryFields, Page, pageRequest } from '../schemas/list.js';
import { Fuel, Vehicle } from '../schemas/vehicle.js';

const garageSlugField = {
  garageSlug: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: SLUG_MAX_LENGTH,
      pattern: SLUG.source,
      description: 'Public access without a key: the garage slug. Malformed: 400 (checked before any lookup); unknown: 404.',
    }),
  ),
};

const access = {
  tags: ['fleet'],
  // Either a key of any integration of the garage (no toggle needed) or the garageSlug parameter.
  security: [{ apiKey: [] }, {}] as Record<string, string[]>[],
};

/** Used vehicles for sale, for garage websites: cross-origin calls allowed (registered in a public scope). */
const fleetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '',
    {
      onRequest: app.fleetAccess,
      config: { etag: true, listCache: 'vehicles' },
      schema: {
        operationId: 'listVehicles',
        summary: 'List vehicles for sale',
        description: 'Newest publishedAt first; sold vehicles are never listed. Send x-api-key or garageSlug.',
        ...access,
        querystring: Type.Object(
          {
            ...listQueryFields,
            make: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'Case-insensitive' })),
            fuel: Type.Optional(Fuel),
            ...garageSlugField,
            ...apiKeyQueryField,
          },
          { additionalProperties: false },
        ),
        response: { 200: Page(Vehicle), 304: NotModified, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) =>
      sendPage(
        reply,
        await app.useCases.listVehicles({
          garageId: garageOf(request),
          ...pageRequest(request.query),
          make: request.query.make ?? null,
          fuel: request.query.fuel ?? null,
        }),
      ),
  );

  app.get(
    '/:vehicleId',
    {
      onRequest: app.fleetAccess,
      config: { etag: true },
      schema: {
        operationId: 'getVehicle',
        summary: 'Get a vehicle for sale',
        description: 'A sold or unknown vehicle gives 404. Send x-api-key or garageSlug.',
        ...access,
        params: Type.Object({ vehicleId: Uuid() }, { additionalProperties: false }),
        querystring: Type.Object({ ...garageSlugField, ...apiKeyQueryField }, { additionalProperties: false }),
        response: {
          200: Type.Object({ data: Vehicle }, { additionalProperties: false }),
          304: NotModified,
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => ({ data: await app.useCases.getVehicle(garageOf(request), request.params.vehicleId) }),
  );
};

export default fleetRoutes;

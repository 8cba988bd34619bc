import type { FastifyPluginAsync } from 'fastify';
import { publicScope } from '../plugins/public-cors.js';
import fleetRoutes from './fleet.js';
import healthRoutes from './health.js';
import openapiRoutes from './openapi.js';
import productRoutes from './products.js';
import stockRoutes from './stock.js';

/**
 * Every route of the API. Key-authenticated resources are registered under /api/public directly and send no CORS
 * headers; public resources (fleet now; leads and quotes later) each go through `publicScope` with their own prefix.
 */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(productRoutes, { prefix: '/api/public' });
  await app.register(stockRoutes, { prefix: '/api/public' });
  await app.register(publicScope, { prefix: '/api/public/fleet', routes: [fleetRoutes] });
  await app.register(publicScope, { prefix: '/api/public/openapi.json', routes: [openapiRoutes] });
};

export default routes;

import type { FastifyPluginAsync } from 'fastify';
import { publicScope } from '../plugins/public-cors.js';
import appointmentRoutes from './appointments.js';
import changelogRoutes from './changelog.js';
import fleetRoutes from './fleet.js';
import healthRoutes from './health.js';
import leadRoutes from './leads.js';
import openapiRoutes from './openapi.js';
import productRoutes from './products.js';
import quoteRoutes from './quotes.js';
import requestRoutes from './requests.js';
import stockRoutes from './stock.js';
import testHelperRoutes from './test-helpers.js';
import webhookRoutes from './webhooks.js';

/**
 * Every route of the API. Key-authenticated resources are registered under /api/public directly and send no CORS
 * headers; public resources (fleet and its leads, quotes) each go through `publicScope` with their own prefix.
 */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(productRoutes, { prefix: '/api/public' });
  await app.register(stockRoutes, { prefix: '/api/public' });
  await app.register(appointmentRoutes, { prefix: '/api/public' });
  await app.register(webhookRoutes, { prefix: '/api/public' });
  await app.register(requestRoutes, { prefix: '/api/public' });
  await app.register(testHelperRoutes, { prefix: '/api/public' });
  await app.register(publicScope, { prefix: '/api/public/fleet', routes: [fleetRoutes, leadRoutes] });
  await app.register(publicScope, { prefix: '/api/public/quotes', routes: [quoteRoutes] });
  await app.register(publicScope, { prefix: '/api/public/openapi.json', routes: [openapiRoutes] });
  await app.register(publicScope, { prefix: '/api/public/changelog', routes: [changelogRoutes] });
};

export default routes;

import { NotFoundError, ValidationError } from '../kernel/errors.js';
import type { IntegrationRepository } from '../integrations/integration-repository.port.js';
import type { DeliveryQueue, DeliveryView } from './delivery-queue.port.js';

export const MAX_DELIVERY_LIST = 500;

/** An integration's recent deliveries with every attempt (`webhook deliveries --integration ID`). */
export const makeListWebhookDeliveries =
  ({
    queue,
    integrations,
  }: {
    queue: Pick<DeliveryQueue, 'listByIntegration'>;
    integrations: Pick<IntegrationRepository, 'findById'>;
  }) =>
  async ({ integrationId, limit = 50 }: { integrationId: string; limit?: number }): Promise<DeliveryView[]> => {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERY_LIST) {
      throw new ValidationError(`limit must be an integer from 1 to ${MAX_DELIVERY_LIST}`, [
        { path: '/limit', message: `must be an integer from 1 to ${MAX_DELIVERY_LIST}` },
      ]);
    }
    if (!(await integrations.findById(integrationId))) throw new NotFoundError(`Integration ${integrationId} not found`);
    return queue.listByIntegration(integrationId, limit);
  };

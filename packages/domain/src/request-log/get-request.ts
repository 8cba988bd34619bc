import type { Mode } from '../integrations/integration.js';
import { NotFoundError } from '../kernel/errors.js';
import type { RequestLog } from './request-log.port.js';
import type { RequestRecord } from './request-record.js';

/** `GET /requests/:requestId`: the calling integration's record of that `x-request-id`, in the key's mode. */
export const makeGetRequest =
  ({ log }: { log: Pick<RequestLog, 'findByRequestId'> }) =>
  async (integrationId: string, mode: Mode, requestId: string): Promise<RequestRecord> => {
    const found = await log.findByRequestId(integrationId, mode, requestId);
    if (!found) throw new NotFoundError(`Request ${requestId} not found`);
    return found;
  };

import type { Clock } from '../ports/clock.port.js';
import type { Repositories, UnitOfWork } from '../ports/unit-of-work.port.js';
import type { SecretBox } from '../services/secret-box.js';
import type { DeliveryQueue } from '../webhooks/delivery-queue.port.js';
import { makeListWebhookDeliveries } from '../webhooks/list-webhook-deliveries.js';
import { makeReplayWebhook } from '../webhooks/replay-webhook.js';
import type { DestinationPolicy } from '../webhooks/webhook-destination.js';
import { makeCloseGarage } from './close-garage.js';
import { makeCreateGarage } from './create-garage.js';
import { makeCreateQuote } from './create-quote.js';
import { makeImportProducts, makeImportStock, makeImportVehicles } from './import-catalog.js';
import {
  makeCreateIntegration,
  makeListIntegrations,
  makeRevokeIntegration,
  makeRotateKey,
  makeRotateWebhookSecret,
  makeUpdateIntegration,
} from './manage-integrations.js';
import { makeSeedDemo } from './seed-demo.js';
import { makeListGarageAppointments } from '../booking/list-appointments.js';
import { makeSetAppointmentStatus } from '../booking/set-appointment-status.js';

export interface AdminDeps {
  repos: Repositories;
  uow: UnitOfWork;
  secretBox: SecretBox;
  clock: Clock;
  /** Webhook deliveries, for inspecting and replaying them. */
  deliveries: DeliveryQueue;
  /** Where webhooks may go (`WEBHOOK_ALLOWED_NETWORKS`): checked when a webhook URL is configured. */
  destinations: DestinationPolicy;
}

/** The operator's use-cases (CLI, embedded demo seeding), wired from ports only. */
export const makeAdminUseCases = ({ repos, uow, secretBox, clock, deliveries, destinations }: AdminDeps) => {
  const { garages, integrations } = repos;
  const createGarage = makeCreateGarage({ garages });
  const createIntegration = makeCreateIntegration({ garages, integrations, secretBox, destinations });
  const importProducts = makeImportProducts({ garages, uow });
  const importStock = makeImportStock({ garages, uow });
  const importVehicles = makeImportVehicles({ garages, uow });
  const createQuote = makeCreateQuote({ uow, clock });
  return {
    createGarage,
    closeGarage: makeCloseGarage({ garages }),
    createIntegration,
    listIntegrations: makeListIntegrations({ garages, integrations }),
    revokeIntegration: makeRevokeIntegration({ integrations, clock }),
    rotateKey: makeRotateKey({ integrations, clock }),
    rotateWebhookSecret: makeRotateWebhookSecret({ integrations, secretBox, clock }),
    updateIntegration: makeUpdateIntegration({ integrations, destinations }),
    importProducts,
    importStock,
    importVehicles,
    createQuote,
    listAppointments: makeListGarageAppointments({ garages, appointments: repos.appointments, clock }),
    setAppointmentStatus: makeSetAppointmentStatus({ uow, clock }),
    listWebhookDeliveries: makeListWebhookDeliveries({ queue: deliveries, integrations }),
    replayWebhook: makeReplayWebhook({ queue: deliveries, clock }),
    seedDemo: makeSeedDemo({
      garages,
      clock,
      createGarage,
      createIntegration,
      importProducts,
      importStock,
      importVehicles,
      createQuote,
    }),
  };
};

export type AdminUseCases = ReturnType<typeof makeAdminUseCases>;

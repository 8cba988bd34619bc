import {
  type Clock,
  makeCloseGarage,
  makeCreateGarage,
  makeCreateIntegration,
  makeCreatePortalLink,
  makeListPortalActions,
  makeCreateQuote,
  makeDestinationPolicy,
  makeImportProducts,
  makeImportStock,
  makeImportVehicles,
  makeListGarageAppointments,
  makeListIntegrations,
  makeListWebhookDeliveries,
  makeLocalTime,
  makeReplayWebhook,
  makeResetSandbox,
  makeRevokeIntegration,
  makeRotateKey,
  makeRotateTestKey,
  makeRotateTestWebhookSecret,
  makeRotateWebhookSecret,
  makeSeedDemo,
  makeSetAppointmentStatus,
  makeUpdateIntegration,
  makeSecretBox,
  makeExportCustomerData,
  makeEraseCustomerData,
  systemClock,
  type DestinationPolicy,
  type EncryptionKey,
  type LocalTime,
} from '@garage/domain';
import {
  makeDeliveryQueue,
  makePersonalDataReader,
  makePersonalDataUnitOfWork,
  makePortalStore,
  makeRepositories,
  makeUnitOfWork,
  type Db,
  type UnitOfWorkOptions,
} from '@garage/postgres';

/** What the operator's use cases may be given; each has a default (below). */
export interface AdminOptions extends UnitOfWorkOptions {
  clock?: Clock;
  destinations?: DestinationPolicy;
  localTime?: LocalTime;
}

/**
 * The operator's use cases over one database, wired once: the CLI, the API's embedded demo seeding and the tests all
 * take them from here. `encryptionKeys` are the active key first, then former ones (see `openStorage`).
 * `destinations` judges configured webhook URLs (`WEBHOOK_ALLOWED_NETWORKS`); by default only public addresses are
 * accepted. `localTime` keeps the local-time facts the appointment use cases read (`makeLocalTime`).
 * `onStatisticsNotRefreshed` hears of a failed statistics refresh after an import (see `makeUnitOfWork`).
 */
export const makeAdminUseCases = (
  db: Db,
  encryptionKeys: EncryptionKey[],
  { clock = systemClock, destinations = makeDestinationPolicy(), localTime = makeLocalTime(), onStatisticsNotRefreshed }: AdminOptions = {},
) => {
  const repos = makeRepositories(db);
  const uow = makeUnitOfWork(db, { onStatisticsNotRefreshed });
  const secretBox = makeSecretBox(encryptionKeys);
  const deliveries = makeDeliveryQueue(db);
  const { garages, integrations } = repos;
  const createGarage = makeCreateGarage({ garages });
  const createIntegration = makeCreateIntegration({ uow, secretBox, destinations });
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
    updateIntegration: makeUpdateIntegration({ uow, secretBox, destinations }),
    rotateTestKey: makeRotateTestKey({ uow, secretBox, clock }),
    rotateTestWebhookSecret: makeRotateTestWebhookSecret({ uow, secretBox, clock }),
    /** `integration sandbox-reset`; the test helper of the API calls the same use case. */
    resetSandbox: makeResetSandbox({ uow, secretBox, clock }),
    /** `versions`: how many live integrations each API version still serves. */
    countIntegrationsByApiVersion: () => integrations.countByApiVersion(),
    importProducts,
    importStock,
    importVehicles,
    createQuote,
    listAppointments: makeListGarageAppointments({ garages, appointments: repos.appointments, localTime }),
    setAppointmentStatus: makeSetAppointmentStatus({ uow, clock, localTime }),
    listWebhookDeliveries: makeListWebhookDeliveries({ queue: deliveries, integrations }),
    replayWebhook: makeReplayWebhook({ queue: deliveries, clock }),
    exportCustomerData: makeExportCustomerData({ garages, personalData: makePersonalDataReader(db) }),
    eraseCustomerData: makeEraseCustomerData({ garages, uow: makePersonalDataUnitOfWork(db), clock }),
    /** `integration portal-link` and `integration audit` (docs/reference/contract.md §10). */
    createPortalLink: makeCreatePortalLink({ integrations, portal: makePortalStore(db), clock }),
    listPortalActions: makeListPortalActions({ portal: makePortalStore(db) }),
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

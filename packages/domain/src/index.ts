/**
 * The domain's public surface, feature by feature: the use cases, their commands and limits, the ports adapters
 * implement, and the entities they exchange. Listed name by name: internals (the slot model, the occupancy count,
 * the field checker) stay behind the use cases that apply them. Test support is the separate `testing` entry.
 */
/** What every feature shares: errors, time, transactions, paging, ids and secrets at rest. */
export {
  DomainError,
  ERROR_CODES,
  AppointmentNotChangeableError,
  DuplicateError,
  IdempotencyInProgressError,
  IdempotencyKeyReusedError,
  InvalidReferenceError,
  isDomainError,
  NotFoundError,
  QuoteAlreadyProcessedError,
  QuoteExpiredError,
  SandboxLimitError,
  SlotFullError,
  DatesUnavailableError,
  UnauthorizedError,
  UNAUTHORIZED_MESSAGE,
  UnavailableError,
  WebhookNotConfiguredError,
  ValidationError,
  type ErrorCode,
  type ErrorDetail,
} from './kernel/errors.js';
export { systemClock, type Clock } from './kernel/clock.port.js';
export { growingLru, type GrowingLruOptions } from './kernel/growing-lru.js';
export type { Repositories, Transaction, UnitOfWork, Work } from './kernel/unit-of-work.port.js';
export type { TransactionalUseCase } from './kernel/transactional-use-case.js';
export type { KeysetPosition, KeysetQuery } from './kernel/pagination.js';
export type { Listing, Page, PageRequest } from './kernel/page.js';
export { field, fieldsOf, type FieldKind, type FieldShape, type ItemOf, type ItemShape } from './kernel/item-shape.js';
export { makeCursorCodec, type CursorCodec } from './kernel/cursor.js';
export type { ListName, ListVersionProbe } from './kernel/list-version.port.js';
export { isUuid, UUID_PATTERN, uuidV7Time } from './kernel/ids.js';
export { CONTACT_LIMITS } from './kernel/contact.js';
export { deriveSubkey, ENCRYPTION_KEY_BYTES, parseEncryptionKey, type EncryptionKey } from './kernel/encryption-key.js';
export { BOUND_NONCE_PREFIX, makeSecretBox, type SecretBox } from './kernel/secret-box.js';
/** Garages, their opening hours and booking settings, and how a public caller names one (fleet `garageSlug`). */
export {
  DEFAULT_BOOKING,
  WEEKDAYS,
  type BookingSettings,
  type Closure,
  type Garage,
  type OpeningInterval,
  type Weekday,
  type WeeklyHours,
} from './garages/garage.js';
export { DEFAULT_OPENING_HOURS, parseWeeklyHours } from './garages/opening-hours.js';
export { isSlug, SLUG, SLUG_MAX_LENGTH } from './kernel/validation.js';
export type { GarageRepository, NewGarage } from './garages/garage-repository.port.js';
export { makeCreateGarage, type CreateGarageCommand } from './garages/create-garage.js';
export { makeCloseGarage } from './garages/close-garage.js';
export { makeResolveFleetGarage, type FleetAccess } from './fleet/resolve-fleet-garage.js';
/** Integrations: API keys, sync toggles, authentication, and the operator's management of them. */
export type { EncryptedSecret, Integration, Mode, Principal, SyncToggle, SyncToggles } from './integrations/integration.js';
export type {
  IntegrationChanges,
  IntegrationRepository,
  NewIntegration,
  SandboxSummary,
  WebhookSecrets,
} from './integrations/integration-repository.port.js';
export { generateApiKey, generateToken, generateWebhookSecret, isWellFormedApiKey, sha256Hex } from './integrations/api-key.js';
export { makeAuthenticate, type Authenticate } from './integrations/authenticate.js';
export { ToggleOffError } from './integrations/toggle-off-error.js';
export { makeCreateIntegration, type CreatedIntegration, type CreateIntegrationCommand } from './integrations/create-integration.js';
export { makeListIntegrations, type ListedIntegration } from './integrations/list-integrations.js';
export { makeRevokeIntegration } from './integrations/revoke-integration.js';
export { makeRotateKey } from './integrations/rotate-key.js';
export { makeRotateWebhookSecret } from './integrations/rotate-webhook-secret.js';
export { MAX_OVERLAP_HOURS } from './integrations/rotation-overlap.js';

/** Sandboxes: a garage of its own per integration, reached with the test key (docs/reference/contract.md §9). */
export { SANDBOX_LIMITS, type SandboxLimits } from './sandbox/sandbox.js';
export type { SandboxStore } from './sandbox/sandbox-store.port.js';
export type { ProvisionedSandbox } from './sandbox/provision-sandbox.js';
export { makeRotateTestKey } from './sandbox/rotate-test-key.js';
export { makeRotateTestWebhookSecret } from './sandbox/rotate-test-webhook-secret.js';
export { makeResetSandbox } from './sandbox/reset-sandbox.js';
export { makeUpdateIntegration, type UpdateIntegrationCommand } from './integrations/update-integration.js';
/** The parts catalog, stock and the vehicles for sale: their lists for connectors and their imports. */
export {
  PRODUCT_DEFAULTS,
  PRODUCT_ITEM,
  STOCK_ITEM,
  productPosition,
  stockPosition,
  type Product,
  type ProductImportRow,
  type StockImportRow,
  type StockItem,
} from './catalog/catalog-items.js';
export {
  FUELS,
  GEARBOXES,
  VEHICLE_STATUSES,
  VEHICLE_ITEM,
  vehiclePosition,
  type Fuel,
  type Gearbox,
  type Vehicle,
  type VehicleImportRow,
  type VehicleStatus,
} from './fleet/vehicle.js';
export type {
  ProductListQuery,
  ProductReader,
  ProductRepository,
  StockListQuery,
  StockReader,
  StockRepository,
} from './catalog/catalog-repository.port.js';
export type { VehicleListQuery, VehicleReader, VehicleRepository } from './fleet/vehicle-repository.port.js';
export { makeListProducts, type ListProductsQuery } from './catalog/list-products.js';
export { makeListStock, type ListStockQuery } from './catalog/list-stock.js';
export { makeListVehicles, type ListVehiclesQuery } from './fleet/list-vehicles.js';
export { makeGetVehicle } from './fleet/get-vehicle.js';
export type { ImportResult } from './kernel/import-rows.js';
export { makeImportProducts } from './catalog/import-products.js';
export { makeImportStock } from './catalog/import-stock.js';
export { makeImportVehicles } from './fleet/import-vehicles.js';
/** Workshop appointments: booking under the capacity rule, and the availability that the same rule computes. */
export {
  APPOINTMENT_STATUSES,
  holdsPlace,
  OPEN_STATUSES,
  PLACE_HOLDING_STATUSES,
  type Appointment,
  type AppointmentCustomer,
  type AppointmentStatus,
  type AppointmentVehicle,
} from './booking/appointment.js';
export type {
  AppointmentChange,
  AppointmentListQuery,
  AppointmentReader,
  AppointmentRepository,
  NewAppointment,
} from './booking/appointment-repository.port.js';
export { compareBookingLockKeys, type BookingLockKey, type BookingLocks } from './booking/booking-lock.port.js';
export type { BookingWriter, PlaceRequest } from './booking/booking-writer.port.js';
export { hasRoom, placesSpan } from './booking/capacity-rule.js';
export type { BookedInterval } from './booking/occupancy.js';
export { MAX_DURATION_MINUTES } from './booking/slot-model.js';
export { isContractDate, isContractDateTime, makeLocalTime, type LocalTime, type LocalTimeLimits } from './booking/local-time.js';
export {
  APPOINTMENT_FIELD_LIMITS,
  MAX_PRODUCTS_PER_APPOINTMENT,
  makeBookAppointment,
  type BookAppointmentCommand,
} from './booking/book-appointment.js';
export type { AvailabilityReader, CalendarQuery, DayPlaces, DayVersions, GarageCalendar } from './booking/availability-reader.port.js';
export {
  makeAvailableDays,
  type AvailableDay,
  type AvailableDays,
  type AvailableStart,
  type DayQuery,
} from './booking/available-days.js';
export { cachedAvailableDays, type AvailableDaysCacheOptions } from './booking/cached-available-days.js';
export { MAX_AVAILABILITY_DAYS, makeListAvailability, type AvailabilityQuery } from './booking/list-availability.js';
export { appointmentEvent, appointmentView, type AppointmentEventType, type AppointmentView } from './booking/appointment-view.js';
export { makeGetAppointment } from './booking/get-appointment.js';
export { makeListAppointments, makeListGarageAppointments, type ListAppointmentsQuery } from './booking/list-appointments.js';
export { CANCELLATION_REASON_MAX, makeCancelAppointment, type CancelAppointmentCommand } from './booking/cancel-appointment.js';
export { makeRescheduleAppointment, type RescheduleAppointmentCommand } from './booking/reschedule-appointment.js';
export {
  GARAGE_STATUSES,
  makeSetAppointmentStatus,
  type GarageStatus,
  type SetAppointmentStatusCommand,
  type StatusChange,
} from './booking/set-appointment-status.js';
/** Quotes: created by the garage, read, accepted or refused once by the customer holding the token. */
export {
  lineTotalCents,
  publicQuoteStatus,
  QUOTE_STATUSES,
  type Quote,
  type QuoteLine,
  type QuoteLineInput,
  type QuoteStatus,
  type StoredQuoteStatus,
} from './quotes/quote.js';
export type { NewQuote, QuoteDecision, QuoteReader, QuoteRepository } from './quotes/quote-repository.port.js';
export { makeCreateQuote, type CreatedQuote, type CreateQuoteCommand } from './quotes/create-quote.js';
export type { PublicQuote } from './quotes/public-quote.js';
export { makeGetQuote } from './quotes/get-quote.js';
export { makeDecideQuote, QUOTE_DECISION_LIMITS, type DecideQuoteCommand, type QuoteDecisionCommand } from './quotes/decide-quote.js';
/** Leads: a visitor's interest in a vehicle for sale. */
export type { Lead } from './leads/lead.js';
export type { LeadRepository, NewLead } from './leads/lead-repository.port.js';
export { LEAD_FIELD_LIMITS, makeSubmitLead, type SubmitLeadCommand } from './leads/submit-lead.js';
/** Webhooks: the transactional outbox, signed deliveries with retries, and the operator's view of them. */
export { audienceOf, WEBHOOK_EVENT_TYPES, type Outbox, type OutboxEvent, type WebhookEventType } from './webhooks/outbox.port.js';
export { signWebhook, signWithEach } from './webhooks/signature.js';
export { signedWebhookRequest, signingSecrets, WEBHOOK_TIMEOUT_MS } from './webhooks/signed-request.js';
export { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, retryDelay, type RetrySchedule } from './webhooks/retry-schedule.js';
export { webhookBody, type RenderWebhookBody, type WebhookEvent } from './webhooks/webhook-event.js';
export type { WebhookRequest, WebhookResponse, WebhookSender } from './webhooks/webhook-sender.port.js';
export {
  DELIVERY_STATUSES,
  type ClaimedDelivery,
  type ClaimRequest,
  type DeliveryBacklog,
  type DeliveryAttempt,
  type DeliveryOutcome,
  type DeliveryQueue,
  type DeliveryStatus,
  type DeliveryView,
} from './webhooks/delivery-queue.port.js';
export {
  DELIVERY_LEASE_MS,
  makeAttemptDelivery,
  makeDeliverDueWebhooks,
  type AttemptDeliveryDeps,
  outcomeOf,
  type DeliverDueWebhooksDeps,
  type DeliveryReport,
} from './webhooks/deliver-due-webhooks.js';
export { makeReplayWebhook, type ReplayedWebhook } from './webhooks/replay-webhook.js';
export { MAX_DELIVERY_LIST, makeListWebhookDeliveries } from './webhooks/list-webhook-deliveries.js';
export type { StoredWebhookSecret, WebhookSecretStore } from './webhooks/webhook-secret-store.port.js';
export { makeReencryptWebhookSecrets } from './webhooks/reencrypt-webhook-secrets.js';
export type { DeliveryListQuery, DeliverySummary, EventListQuery, WebhookFeed } from './webhooks/webhook-feed.port.js';
export { makeTestWebhook, WEBHOOK_TEST_EVENT_TYPE, type WebhookTestResult } from './webhooks/test-webhook.js';
export { makeListIntegrationDeliveries, type IntegrationDeliveriesQuery } from './webhooks/list-integration-deliveries.js';
export { makeListIntegrationEvents, type IntegrationEventsQuery } from './webhooks/list-integration-events.js';
export { makeRetryDelivery } from './webhooks/retry-delivery.js';
export {
  addressLiteralOf,
  DESTINATION_NOT_ALLOWED,
  makeDestinationPolicy,
  parseAllowedNetworks,
  webhookUrlProblem,
  type DestinationPolicy,
} from './webhooks/webhook-destination.js';
/** Idempotency-Key: safe retries of a state-changing request, the record committed with the change. */
export type { IdempotencyBegin, IdempotencyClaim, IdempotencyStore, StoredResponse } from './idempotency/idempotency-store.port.js';
export { canonicalJson, idempotencyScope, requestHash } from './idempotency/request-hash.js';
export {
  checkIdempotencyKey,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  idempotencyClaim,
} from './idempotency/idempotency-key.js';
/** The demo garage an embedded installation is seeded with. */
export { DEMO_GARAGE_SLUG, demoIntegrationCredentials, makeSeedDemo, type DemoCredentials } from './garages/seed-demo.js';
/** Data over time: retention of the tables that grow, and what a garage holds about a person (docs/reference/contract.md §11). */
export { DAY_MS, EVENT_FEED_DAYS, type RetentionPolicy, type RetentionSettings } from './retention/retention-policy.js';
export type { RetentionStore } from './retention/retention-store.port.js';
export { DEFAULT_RETENTION_LIMITS, makeEnforceRetention, type RetentionLimits } from './retention/enforce-retention.js';
export { makeMeasureRetention, type TableAge } from './retention/measure-retention.js';
export {
  ERASED,
  eraseEventData,
  type CustomerAppointment,
  type CustomerLead,
  type CustomerQuote,
  type CustomerRecords,
  type ErasureCounts,
} from './personal-data/customer-records.js';
export type {
  PersonalDataEraser,
  PersonalDataReader,
  PersonalDataUnitOfWork,
  StoredEventData,
} from './personal-data/personal-data-store.port.js';
export { makeExportCustomerData, type CustomerCommand, type CustomerExport } from './personal-data/export-customer-data.js';
export { makeEraseCustomerData, type CustomerErasure } from './personal-data/erase-customer-data.js';
/** The request log: what the API saw of each key-authenticated request, for the connector to debug alone. */
export type { NewRequestRecord, RequestRecord } from './request-log/request-record.js';
export type { RequestLog, RequestLogQuery, StatusRange } from './request-log/request-log.port.js';
export { makeListRequests, parseStatusFilter, type ListRequestsQuery } from './request-log/list-requests.js';
export { makeGetRequest } from './request-log/get-request.js';
/** The connector portal: single-use links, sessions, the audit of what was done there, and its version pin rule. */
export {
  PIN_REVERT_HOURS,
  PORTAL_LINK_DEFAULT_MINUTES,
  PORTAL_LINK_MAX_MINUTES,
  PORTAL_SESSION_HOURS,
  type NewPortalAction,
  type PortalAction,
  type PortalLinkRefusal,
  type PortalSession,
} from './portal/portal.js';
export type { PortalStore } from './portal/portal-store.port.js';
export { makeCreatePortalLink } from './portal/create-portal-link.js';
export { makeOpenPortalSession, type OpenedSession } from './portal/open-portal-session.js';
export { makeResolvePortalSession } from './portal/resolve-portal-session.js';
export { makeEndPortalSession } from './portal/end-portal-session.js';
export { makeListPortalActions, PORTAL_AUDIT_LIMIT } from './portal/list-portal-actions.js';
export { makeMoveVersionPin, revertablePin, type MoveVersionPinCommand } from './portal/move-version-pin.js';
export { makeRecordPortalAction } from './portal/record-portal-action.js';

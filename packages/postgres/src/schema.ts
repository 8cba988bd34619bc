import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

/** bigint and numeric arrive as strings from pg; the repositories convert them. */
type Int8 = ColumnType<string | number, number | string, number | string>;
type Numeric = ColumnType<string | number, number | string, number | string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;
/** `date` columns are read as `YYYY-MM-DD` strings (see the type parser in db.ts). */
type LocalDate = ColumnType<string, string, string>;

export interface GaragesTable {
  id: Generated<string>;
  slug: string;
  name: string;
  currency: string;
  timezone: string;
  slot_minutes: number;
  capacity: number;
  weekly_hours: Json<Record<string, { start: string; end: string }[]>>;
  min_notice_minutes: number;
  horizon_days: number;
  created_at: Timestamp;
  /** The live garage a sandbox copies (null for a live garage), and what the sandbox may hold (migration 0015). */
  sandbox_of: Generated<string | null>;
  appointment_limit: Generated<number | null>;
  quote_limit: Generated<number | null>;
  /** The sandbox's last catalog copy, and the newest live catalog write it holds (migration 0015). */
  copied_at: Generated<Date | null>;
  live_copied_through: Generated<Date | null>;
}

export interface GarageClosuresTable {
  id: Generated<string>;
  garage_id: string;
  from_date: LocalDate;
  to_date: LocalDate;
  reason: string | null;
  created_at: Timestamp;
}

export interface IntegrationsTable {
  id: Generated<string>;
  garage_id: string;
  name: string;
  api_key_hash: string;
  sync_appointments: Generated<boolean>;
  sync_catalog: Generated<boolean>;
  sync_stock: Generated<boolean>;
  webhook_url: string | null;
  /** The API version the integration is pinned to (migration 0007). */
  api_version: Generated<string>;
  webhook_secret_key_id: string;
  webhook_secret_nonce: string;
  webhook_secret_ciphertext: string;
  webhook_secret_tag: string;
  /** The key replaced by the last rotation, accepted until `previous_key_expires_at` (migration 0005). */
  previous_api_key_hash: Generated<string | null>;
  previous_key_expires_at: Generated<Date | null>;
  /** The secret replaced by the last rotation, signing beside the new one until `previous_secret_expires_at`. */
  previous_webhook_secret_key_id: Generated<string | null>;
  previous_webhook_secret_nonce: Generated<string | null>;
  previous_webhook_secret_ciphertext: Generated<string | null>;
  previous_webhook_secret_tag: Generated<string | null>;
  previous_secret_expires_at: Generated<Date | null>;
  revoked_at: Date | null;
  last_used_at: Date | null;
  key_rotated_at: Date | null;
  created_at: Timestamp;
  /** The current key's last 4 characters, what the portal shows of it; null for keys made before migration 0019. */
  api_key_ending: Generated<string | null>;
  /** On the test side of an integration, a row of its sandbox garage: the live integration (migration 0015). */
  live_integration_id: Generated<string | null>;
}

export interface ProductsTable {
  id: Generated<string>;
  garage_id: string;
  sku: string;
  name: string;
  description: string | null;
  category: string | null;
  brand: string | null;
  price_cents: Int8;
  currency: string;
  vat_rate: Numeric;
  unit: string;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The row's list item as the API sends it, rendered by a trigger on every write from its item shape (src/list-items/). */
  list_item: Generated<string>;
}

export interface StockTable {
  product_id: string;
  garage_id: string;
  quantity: number;
  updated_at: Timestamp;
  /** The row's list item as the API sends it, rendered by a trigger on every write from its item shape (src/list-items/). */
  list_item: Generated<string>;
}

export interface VehiclesTable {
  id: Generated<string>;
  garage_id: string;
  reference: string;
  make: string;
  model: string;
  version: string | null;
  year: number;
  mileage_km: number;
  fuel: string;
  gearbox: string;
  price_cents: Int8;
  currency: string;
  color: string | null;
  description: string | null;
  photos: Json<string[]>;
  status: Generated<string>;
  published_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The row's list item as the API sends it, rendered by a trigger on every write from its item shape (src/list-items/). */
  list_item: Generated<string>;
}

export interface AppointmentsTable {
  id: Generated<string>;
  garage_id: string;
  integration_id: string;
  starts_at: RequiredTimestamp;
  ends_at: RequiredTimestamp;
  duration_minutes: number;
  customer_name: string;
  customer_email: string | null;
  customer_phone: string | null;
  vehicle: Json<Record<string, unknown>> | null;
  notes: string | null;
  external_ref: string | null;
  status: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  cancelled_at: Date | null;
  cancellation_reason: string | null;
}

export interface AppointmentProductsTable {
  appointment_id: string;
  garage_id: string;
  product_id: string;
}

export interface QuotesTable {
  id: Generated<string>;
  garage_id: string;
  number: string;
  token_hash: string;
  status: Generated<string>;
  customer_name: string;
  lines: Json<{ label: string; quantity: number; unitPriceCents: number; vatRate: number; totalCents: number }[]>;
  total_cents: Int8;
  currency: string;
  expires_at: RequiredTimestamp;
  decided_at: Date | null;
  signer_name: string | null;
  comment: string | null;
  refuse_reason: string | null;
  created_at: Timestamp;
}

export interface LeadsTable {
  id: Generated<string>;
  garage_id: string;
  vehicle_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  message: string | null;
  consent: boolean;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  request_hash: string;
  state: string;
  response_status: number | null;
  /** The JSON text as stored, so that a replay sends the same bytes (migration 0002). */
  response_body: string | null;
  locked_until: Date | null;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
}

export interface WebhookEventsTable {
  id: Generated<string>;
  garage_id: string;
  type: string;
  payload: Json<Record<string, unknown>>;
  created_at: Timestamp;
  /** W3C `traceparent` of the work that wrote the event; null when tracing was off. */
  trace_parent: ColumnType<string | null, string | null | undefined, never>;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  event_id: string;
  integration_id: string;
  url: string;
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  attempted_at: RequiredTimestamp;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** A garage's local date that bookings have touched: its booking lock and the count of its changes (migration 0009). */
export interface BookingDaysTable {
  garage_id: string;
  local_date: LocalDate;
  version: Generated<Int8>;
}

/** One `customer erase`: where, when and how many rows of each kind, never whom (migration 0016). */
export interface PersonalDataErasuresTable {
  id: Generated<string>;
  garage_id: string;
  erased_at: RequiredTimestamp;
  appointments: number;
  leads: number;
  quotes: number;
  events: number;
}

/**
 * What the API saw of one key-authenticated request (migration 0019): the previous release's request log, read until
 * a later release drops it (the records are written to `request_log_chunks` now).
 */
export interface RequestLogTable {
  id: Generated<string>;
  integration_id: string;
  mode: string;
  request_id: string;
  created_at: RequiredTimestamp;
  method: string;
  route: string;
  path: string;
  query_parameters: string[];
  status: number;
  error_code: string | null;
  api_version: string;
  duration_ms: number;
  error_body: ColumnType<unknown, string | null, never>;
}

/** The request log as chunks of records (migrations 0022 and 0023, src/request-log/request-chunks.ts). */
export interface RequestLogChunksTable {
  id: Generated<string>;
  integration_id: string;
  mode: string;
  first_at: RequiredTimestamp;
  last_at: RequiredTimestamp;
  request_ids: string[];
  records: string;
  /** The distinct statuses of its records; null in chunks written before migration 0023. */
  statuses: number[] | null;
  /** The distinct route patterns of its records; null in chunks written before migration 0023. */
  routes: string[] | null;
}

/** A single-use portal link: the SHA-256 of its secret (migration 0019). */
export interface PortalLinksTable {
  id: Generated<string>;
  integration_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  used_at: Date | null;
}

/** A portal session: the SHA-256 of the cookie's value (migration 0019). */
export interface PortalSessionsTable {
  id: Generated<string>;
  integration_id: string;
  session_hash: string;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  ended_at: Date | null;
}

/** An action taken in the portal (migration 0019). */
export interface PortalActionsTable {
  id: Generated<string>;
  integration_id: string;
  session_id: string | null;
  mode: string;
  action: string;
  detail: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface Database {
  garages: GaragesTable;
  garage_closures: GarageClosuresTable;
  integrations: IntegrationsTable;
  products: ProductsTable;
  stock: StockTable;
  vehicles: VehiclesTable;
  appointments: AppointmentsTable;
  appointment_products: AppointmentProductsTable;
  booking_days: BookingDaysTable;
  quotes: QuotesTable;
  leads: LeadsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  personal_data_erasures: PersonalDataErasuresTable;
  request_log: RequestLogTable;
  request_log_chunks: RequestLogChunksTable;
  portal_links: PortalLinksTable;
  portal_sessions: PortalSessionsTable;
  portal_actions: PortalActionsTable;
}

export type GarageRow = Selectable<GaragesTable>;
export type IntegrationRow = Selectable<IntegrationsTable>;
export type ProductRow = Selectable<ProductsTable>;
export type VehicleRow = Selectable<VehiclesTable>;
export type QuoteRow = Selectable<QuotesTable>;
export type NewProductRow = Insertable<ProductsTable>;
export type ProductUpdate = Updateable<ProductsTable>;

/** What a repository runs on: the pool, or the transaction of a unit of work. */
export type Executor = Kysely<Database> | Transaction<Database>;

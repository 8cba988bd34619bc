import createFetchClient from 'openapi-fetch';
import { ApiError } from './errors.js';
import { API_VERSION } from './generated/api-version.js';
import type { operations, paths } from './generated/openapi.js';
import { listOf, type ListIterable } from './pages.js';
import { retryingFetch, type RetryOptions } from './retrying-fetch.js';

export interface ClientOptions extends RetryOptions {
  /** Where the API is, e.g. `https://api.garage.example` (no trailing `/api/public`). */
  baseUrl: string;
  /** The integration's key, sent as `x-api-key`. */
  apiKey?: string;
  /** Without a key: the public slug of the garage whose fleet to read (fleet, leads and quotes need no key). */
  garageSlug?: string;
  /** Another fetch (tests, proxies); the platform's by default. */
  fetch?: typeof fetch;
}

/** Every POST can take its own Idempotency-Key; without one a fresh UUID is sent, the same on every retry. */
export interface PostOptions {
  idempotencyKey?: string;
}

type Op = keyof operations;
type QueryOf<O extends Op> = operations[O]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;
type BodyOf<O extends Op> = operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Success<O extends Op> = operations[O]['responses'] extends infer R
  ? { [S in keyof R]: S extends 200 | 201 | 202 ? (R[S] extends { content: { 'application/json': infer B } } ? B : never) : never }[keyof R]
  : never;
/** The query of a list, without the cursor the iterator follows itself. */
type ListQuery<O extends Op> = Omit<QueryOf<O>, 'cursor'>;
type Item<O extends Op> = Success<O> extends { data: (infer T)[] } ? T : never;

/** The `data` member of `{ data }` answers. */
const dataOf = <T>(body: { data: T }): T => body.data;

/**
 * The typed client (docs/reference/contract.md §7): one method per operation, lists as async iterators, every POST idempotent and
 * safely retried. `raw` is the generated openapi-fetch client, for anything the methods do not cover.
 */
export const createClient = (options: ClientOptions) => {
  const raw = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args)), options),
    // The version the generated types describe, on every request: a client release means what its types say.
    headers: { 'garage-version': API_VERSION, ...(options.apiKey === undefined ? {} : { 'x-api-key': options.apiKey }) },
  });

  /** The success body, or an ApiError with the contract's code and the request id. */
  const settle = async <T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> => {
    const { data, error, response } = await call;
    if (!response.ok) throw ApiError.from(response, error);
    return data as T;
  };
  // Sent on every POST, declared or not: a retried request is then always recognisable as the same one.
  const idempotency = (post: PostOptions = {}) => ({ 'idempotency-key': post.idempotencyKey ?? crypto.randomUUID() });
  const slug = options.apiKey === undefined && options.garageSlug !== undefined ? { garageSlug: options.garageSlug } : {};

  const list = <O extends Op>(
    get: (query: QueryOf<O>) => Promise<{ data?: unknown; error?: unknown; response: Response }>,
    query: ListQuery<O> | undefined,
  ): ListIterable<Item<O>> =>
    listOf((cursor) => settle(get({ ...query, ...(cursor === null ? {} : { cursor }) } as QueryOf<O>)));

  return {
    raw,
    products: {
      list: (query?: ListQuery<'listProducts'>) =>
        list<'listProducts'>((q) => raw.GET('/api/public/products', { params: { query: q } }), query),
    },
    stock: {
      list: (query?: ListQuery<'listStock'>) => list<'listStock'>((q) => raw.GET('/api/public/stock', { params: { query: q } }), query),
    },
    fleet: {
      list: (query?: ListQuery<'listVehicles'>) =>
        list<'listVehicles'>((q) => raw.GET('/api/public/fleet', { params: { query: { ...slug, ...q } } }), query),
      get: async (vehicleId: string) =>
        dataOf(
          await settle<Success<'getVehicle'>>(raw.GET('/api/public/fleet/{vehicleId}', { params: { path: { vehicleId }, query: slug } })),
        ),
    },
    appointments: {
      availability: async (query: QueryOf<'listAvailability'>) =>
        dataOf(await settle<Success<'listAvailability'>>(raw.GET('/api/public/appointments/availability', { params: { query } }))),
      create: async (body: BodyOf<'createAppointment'>, post?: PostOptions) =>
        dataOf(await settle<Success<'createAppointment'>>(raw.POST('/api/public/appointments', { headers: idempotency(post), body }))),
      get: async (appointmentId: string) =>
        dataOf(await settle<Success<'getAppointment'>>(raw.GET('/api/public/appointments/{appointmentId}', { params: { path: { appointmentId } } }))),
      list: (query?: ListQuery<'listAppointments'>) =>
        list<'listAppointments'>((q) => raw.GET('/api/public/appointments', { params: { query: q } }), query),
      reschedule: async (appointmentId: string, body: BodyOf<'rescheduleAppointment'>, post?: PostOptions) =>
        dataOf(
          await settle<Success<'rescheduleAppointment'>>(
            raw.POST('/api/public/appointments/{appointmentId}/reschedule', {
              params: { path: { appointmentId } },
              headers: idempotency(post),
              body,
            }),
          ),
        ),
      cancel: async (appointmentId: string, body: BodyOf<'cancelAppointment'> = {}, post?: PostOptions) =>
        dataOf(
          await settle<Success<'cancelAppointment'>>(
            raw.POST('/api/public/appointments/{appointmentId}/cancel', {
              params: { path: { appointmentId } },
              headers: idempotency(post),
              body,
            }),
          ),
        ),
    },
    leads: {
      create: async (body: BodyOf<'createLead'>, post?: PostOptions) =>
        dataOf(await settle<Success<'createLead'>>(raw.POST('/api/public/fleet/lead', { headers: idempotency(post), body }))),
    },
    quotes: {
      get: async (token: string) => dataOf(await settle<Success<'getQuote'>>(raw.GET('/api/public/quotes/{token}', { params: { path: { token } } }))),
      accept: async (token: string, body: BodyOf<'acceptQuote'> = {}, post?: PostOptions) =>
        dataOf(
          await settle<Success<'acceptQuote'>>(
            raw.POST('/api/public/quotes/{token}/accept', { params: { path: { token } }, headers: idempotency(post), body }),
          ),
        ),
      refuse: async (token: string, body: BodyOf<'refuseQuote'> = {}, post?: PostOptions) =>
        dataOf(
          await settle<Success<'refuseQuote'>>(
            raw.POST('/api/public/quotes/{token}/refuse', { params: { path: { token } }, headers: idempotency(post), body }),
          ),
        ),
    },
    webhooks: {
      test: async (post?: PostOptions) =>
        dataOf(await settle<Success<'testWebhook'>>(raw.POST('/api/public/webhooks/test', { headers: idempotency(post) }))),
      deliveries: {
        list: (query?: ListQuery<'listWebhookDeliveries'>) =>
          list<'listWebhookDeliveries'>((q) => raw.GET('/api/public/webhooks/deliveries', { params: { query: q } }), query),
        retry: async (deliveryId: string, post?: PostOptions) =>
          dataOf(
            await settle<Success<'retryWebhookDelivery'>>(
              raw.POST('/api/public/webhooks/deliveries/{deliveryId}/retry', {
                params: { path: { deliveryId } },
                headers: idempotency(post),
              }),
            ),
          ),
      },
    },
    events: {
      list: (query?: ListQuery<'listEvents'>) => list<'listEvents'>((q) => raw.GET('/api/public/events', { params: { query: q } }), query),
    },
    /** The integration's own recent requests, as the API saw them (newest first), and one by its `x-request-id`. */
    requests: {
      list: (query?: ListQuery<'listRequests'>) => list<'listRequests'>((q) => raw.GET('/api/public/requests', { params: { query: q } }), query),
      get: async (requestId: string) =>
        dataOf(await settle<Success<'getRequest'>>(raw.GET('/api/public/requests/{requestId}', { params: { path: { requestId } } }))),
    },
    /** What the garage does, done in the sandbox: with a test key only (a live key gets 404 NOT_FOUND). */
    testHelpers: {
      /** A pending sandbox quote; its `token` works with `quotes.get`, `quotes.accept` and `quotes.refuse`. */
      createQuote: async (body: BodyOf<'createTestQuote'>, post?: PostOptions) =>
        dataOf(await settle<Success<'createTestQuote'>>(raw.POST('/api/public/test-helpers/quotes', { headers: idempotency(post), body }))),
      /** Moves a sandbox appointment as the garage does, with the event the garage's change sends. */
      setAppointmentStatus: async (appointmentId: string, body: BodyOf<'setTestAppointmentStatus'>, post?: PostOptions) =>
        dataOf(
          await settle<Success<'setTestAppointmentStatus'>>(
            raw.POST('/api/public/test-helpers/appointments/{appointmentId}/status', {
              params: { path: { appointmentId } },
              headers: idempotency(post),
              body,
            }),
          ),
        ),
      /** Empties the sandbox and copies the live garage into it again. */
      resetSandbox: async (post?: PostOptions) =>
        dataOf(await settle<Success<'resetSandbox'>>(raw.POST('/api/public/test-helpers/sandbox/reset', { headers: idempotency(post) }))),
    },
  };
};

export type GarageClient = ReturnType<typeof createClient>;

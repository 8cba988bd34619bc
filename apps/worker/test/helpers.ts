import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateWebhookSecret, makeSecretBox, type EncryptionKey } from '@garage/domain';
import { parseEncryptionKey } from '@garage/domain';
import type { Db } from '@garage/postgres';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export type Handler = (request: ReceivedRequest, response: ServerResponse, index: number) => void | Promise<void>;

/** A webhook receiver on loopback that records every request and answers through `handler` (204 by default). */
export const startReceiver = async (handler: Handler = (_req, res) => void res.writeHead(204).end()) => {
  const received: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: flatten(req.headers),
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    };
    received.push(request);
    for (const w of waiters.filter((x) => received.length >= x.count)) w.resolve();
    await handler(request, res, received.length - 1);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
    waitFor: (count: number, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (received.length >= count) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} webhook requests within ${timeoutMs} ms, got ${received.length}`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      }),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};

const flatten = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]])),
  );

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An ENCRYPTION_KEY value and the key ring the API would derive from it. */
export const newEncryptionKey = (): { env: string; keys: EncryptionKey[] } => {
  const env = randomBytes(32).toString('base64');
  return { env, keys: [parseEncryptionKey(env, 'ENCRYPTION_KEY')] };
};

export const insertGarage = async (db: Db): Promise<string> =>
  (
    await db
      .insertInto('garages')
      .values({
        slug: `g-${randomBytes(6).toString('hex')}`,
        name: 'Webhook garage',
        currency: 'EUR',
        timezone: 'Europe/Paris',
        slot_minutes: 30,
        capacity: 2,
        weekly_hours: '{}',
        min_notice_minutes: 0,
        horizon_days: 60,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

/** An integration as `integration create` makes it: the secret is returned in clear once and stored encrypted. */
export const insertIntegration = async (
  db: Db,
  keys: EncryptionKey[],
  garageId: string,
  options: { webhookUrl: string | null; syncAppointments?: boolean },
): Promise<{ id: string; secret: string }> => {
  const secret = generateWebhookSecret();
  const sealed = makeSecretBox(keys).encrypt(secret);
  const row = await db
    .insertInto('integrations')
    .values({
      garage_id: garageId,
      name: 'Receiver',
      api_key_hash: randomBytes(32).toString('hex'),
      sync_appointments: options.syncAppointments ?? false,
      webhook_url: options.webhookUrl,
      webhook_secret_key_id: sealed.keyId,
      webhook_secret_nonce: sealed.nonce,
      webhook_secret_ciphertext: sealed.ciphertext,
      webhook_secret_tag: sealed.tag,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, secret };
};

/** A logger that keeps what it is given, for assertions. */
export const memoryLogger = () => {
  const lines: { level: string; msg: string | undefined; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, msg, obj });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
};

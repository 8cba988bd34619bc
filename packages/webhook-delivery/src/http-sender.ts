import { promises as dns, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  DESTINATION_NOT_ALLOWED,
  makeDestinationPolicy,
  webhookUrlProblem,
  type DestinationPolicy,
  type WebhookSender,
} from '@garage/domain';
import { webhookErrorOf } from './webhook-error.js';

/** Resolves a host name to every address it has (the system resolver by default; tests map names themselves). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** Thrown from the lookup hook: the connection is never attempted. */
export class DestinationNotAllowedError extends Error {
  constructor() {
    super(DESTINATION_NOT_ALLOWED);
    this.name = 'DestinationNotAllowedError';
  }
}

/**
 * The agent's DNS hook: every address a name resolves to is judged before the socket connects to one, on every new
 * connection, so a name that re-resolves to an internal address (DNS rebinding) is refused too.
 */
const guardedLookup =
  (policy: DestinationPolicy, resolve: Resolver): LookupFunction =>
  (hostname, options, callback) => {
    resolve(hostname).then(
      (resolved) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = resolved.filter((a) => wanted === 0 || a.family === wanted);
        const first = addresses[0];
        if (first === undefined) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND', syscall: 'getaddrinfo' }), '');
        } else if (addresses.some((a) => !policy.allowsAddress(a.address))) {
          callback(new DestinationNotAllowedError(), '');
        } else if (options.all) {
          callback(null, addresses);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };

export interface HttpSenderOptions {
  userAgent?: string;
  /** CIDR ranges of otherwise refused destinations to allow (`WEBHOOK_ALLOWED_NETWORKS`). */
  allowedNetworks?: readonly string[];
  resolve?: Resolver;
}

/**
 * POSTs webhooks to public addresses only (docs/operators/security.md). A name is checked on the addresses it
 * resolves to, in the agents' lookup hook, before any connection; an address literal before the request. Redirects
 * are not followed: a 3xx is an answer like any other non-2xx (retried), so a signed request never travels to a URL
 * the operator did not configure. Failures are reported in coarse words only (`webhookErrorOf`): what a connector
 * reads back must not map the network behind the service.
 */
export const makeHttpSender = ({ userAgent = 'garage-webhooks/1.0', allowedNetworks = [], resolve = systemResolver }: HttpSenderOptions = {}): WebhookSender => {
  const policy = makeDestinationPolicy(allowedNetworks);
  const lookup = guardedLookup(policy, resolve);
  const agents = { 'http:': new http.Agent({ keepAlive: true, lookup }), 'https:': new https.Agent({ keepAlive: true, lookup }) };
  return {
    send({ url, headers, body, timeoutMs }) {
      // An address literal never reaches the lookup hook: `webhookUrlProblem` judges it here, with the scheme and
      // the absence of credentials.
      if (webhookUrlProblem(url, policy) !== null) return Promise.resolve({ error: DESTINATION_NOT_ALLOWED });
      const target = new URL(url);
      const protocol = target.protocol as keyof typeof agents;
      const signal = AbortSignal.timeout(timeoutMs);
      return new Promise((done) => {
        const request = (protocol === 'https:' ? https : http).request(target, {
          method: 'POST',
          agent: agents[protocol],
          headers: { 'user-agent': userAgent, 'content-length': Buffer.byteLength(body), ...headers },
          signal,
        });
        request.on('response', (response) => {
          // Only the status matters; draining the body frees the connection for the next delivery.
          response.resume();
          done({ statusCode: response.statusCode ?? 0 });
        });
        request.on('error', (err) => done({ error: signal.aborted ? 'timeout' : webhookErrorOf(err) }));
        request.end(body);
      });
    },
  };
};

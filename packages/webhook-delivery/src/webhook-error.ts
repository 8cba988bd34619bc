import { DESTINATION_NOT_ALLOWED } from '@garage/domain';

/** The only words a failed attempt is reported in (docs/operators/security.md). */
export type WebhookError = 'timeout' | 'connection refused' | typeof DESTINATION_NOT_ALLOWED | 'TLS error' | 'DNS error';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL', 'ENOTIMP', 'EREFUSED', 'ETIMEOUT']);
/** OpenSSL and Node's TLS layer: certificate problems and handshake failures. */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|EPROTO)/;

/**
 * A connection error in coarse words. Raw messages name addresses and ports ("connect ECONNREFUSED 10.0.0.7:5432"),
 * which would let a connector map the network behind the service through `POST /webhooks/test`: none is passed on.
 * Every other failure to get an answer (reset, unreachable host) reads as a refused connection.
 */
export const webhookErrorOf = (err: unknown): WebhookError => {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { name?: unknown; code?: unknown; syscall?: unknown };
  if (e.name === 'DestinationNotAllowedError') return DESTINATION_NOT_ALLOWED;
  if (e.name === 'TimeoutError' || e.code === 'ETIMEDOUT') return 'timeout';
  const code = typeof e.code === 'string' ? e.code : '';
  if (DNS_CODES.has(code) || e.syscall === 'getaddrinfo') return 'DNS error';
  if (TLS_CODE.test(code)) return 'TLS error';
  return 'connection refused';
};

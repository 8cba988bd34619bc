import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from '../plugins/error-handler.js';
import { newRequestId } from './request-ids.js';

const HEADERS_TOO_LARGE: ErrorBody = { error: 'Request headers are larger than the server accepts', code: 'HEADERS_TOO_LARGE' };
const MALFORMED: ErrorBody = { error: 'Malformed HTTP request', code: 'VALIDATION_FAILED' };
const INCOMPLETE: ErrorBody = { error: 'The request was not received in time', code: 'VALIDATION_FAILED' };

const responseFor = (code: string | undefined): { status: number; body: ErrorBody } => {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, body: HEADERS_TOO_LARGE };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 400, body: INCOMPLETE };
  return { status: 400, body: MALFORMED };
};

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (bad framing, headers over the size limit, a
 * request never completed) never reach a route, so the error handler does not see them either. They get the
 * contract's error body (docs/reference/contract.md §1, §2) with a request id, whenever the socket can still be written to, and the
 * connection is closed: after a framing error nothing else on it can be trusted.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, body } = responseFor(err.code);
  const requestId = newRequestId();
  this.log.info({ reqId: requestId, code: body.code, parserError: err.code }, body.error);
  if (socket.writable) {
    const payload = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(payload)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        // No request was read, so none chose a version: the one a request without a key is served at.
        `garage-version: ${this.apiVersions.oldest}\r\n` +
        'connection: close\r\n\r\n' +
        payload,
    );
  }
  socket.destroy();
}

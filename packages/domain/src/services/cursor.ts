import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../errors.js';
import type { KeysetPosition } from '../ports/pagination.js';

export interface CursorCodec {
  /** `scope` binds the cursor to one garage, list and filter set; a cursor replayed elsewhere is rejected. */
  encode(scope: string, position: KeysetPosition): string;
  decode(scope: string, cursor: string): KeysetPosition;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalid = () => new ValidationError('Invalid cursor', [{ path: '/cursor', message: 'must be a nextCursor value returned by this list' }]);

/**
 * Opaque, tamper-proof cursors: `base64url(position).base64url(HMAC-SHA256(secret, scope + position))`.
 * Every instance shares the secret (derived from the encryption key), so any instance accepts any cursor.
 */
export const makeCursorCodec = (secret: Buffer): CursorCodec => {
  const sign = (scope: string, payload: string) =>
    createHmac('sha256', secret).update(scope).update('\0').update(payload).digest();
  return {
    encode(scope, position) {
      const payload = Buffer.from(`${position.sortValue.getTime()}.${position.id}`).toString('base64url');
      return `${payload}.${sign(scope, payload).toString('base64url')}`;
    },
    decode(scope, cursor) {
      const [payload, mac, extra] = cursor.split('.');
      if (!payload || !mac || extra !== undefined) throw invalid();
      const expected = sign(scope, payload);
      const given = Buffer.from(mac, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      const [millis, id] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
      const time = Number(millis);
      if (!Number.isSafeInteger(time) || !id || !UUID.test(id)) throw invalid();
      return { sortValue: new Date(time), id };
    },
  };
};

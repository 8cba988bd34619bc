import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { ValidationError } from './errors.js';
import type { KeysetPosition } from './pagination.js';
import { isUuid } from './ids.js';

export interface CursorCodec {
  /** `scope` binds the cursor to one garage, list and filter set; a cursor replayed elsewhere is rejected. */
  encode(scope: string, position: KeysetPosition): string;
  decode(scope: string, cursor: string): KeysetPosition;
}

const invalid = () => new ValidationError('Invalid cursor', [{ path: '/cursor', message: 'must be a nextCursor value returned by this list' }]);

/**
 * Opaque, tamper-proof cursors: `base64url(position).base64url(HMAC-SHA256(secret, scope + position))`.
 * Every instance shares the secret (derived from the encryption key), so any instance accepts any cursor. With
 * several secrets (one per key during a key rotation), the first signs and any verifies: a connector walking a list
 * while instances restart with a new key keeps its place.
 */
export const makeCursorCodec = (secrets: Buffer | readonly Buffer[]): CursorCodec => {
  // KeyObjects made once: an HMAC keyed with a raw Buffer imports the key on every call, five times the cost of the
  // MAC itself, and every page read decodes one cursor and signs another.
  const [signing, ...former] = (Buffer.isBuffer(secrets) ? [secrets] : secrets).map((secret) => createSecretKey(secret));
  if (!signing) throw new Error('makeCursorCodec needs at least one secret');
  const sign = (scope: string, payload: string, secret: KeyObject = signing) =>
    createHmac('sha256', secret).update(scope).update('\0').update(payload).digest();
  return {
    encode(scope, position) {
      const payload = Buffer.from(`${position.sortValue.getTime()}.${position.id}`).toString('base64url');
      return `${payload}.${sign(scope, payload).toString('base64url')}`;
    },
    decode(scope, cursor) {
      const [payload, mac, extra] = cursor.split('.');
      if (!payload || !mac || extra !== undefined) throw invalid();
      const given = Buffer.from(mac, 'base64url');
      const signedBy = (secret: KeyObject) => {
        const expected = sign(scope, payload, secret);
        return given.length === expected.length && timingSafeEqual(given, expected);
      };
      if (![signing, ...former].some(signedBy)) throw invalid();
      const [millis, id] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
      const time = Number(millis);
      if (!Number.isSafeInteger(time) || !id || !isUuid(id)) throw invalid();
      return { sortValue: new Date(time), id };
    },
  };
};

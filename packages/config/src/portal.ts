import { Type } from 'typebox';
import { ConfigError } from './config-error.js';

/** The connector portal's and the request log's settings (docs/operators/configuration.md, docs/reference/contract.md §10). */
export const portalFields = {
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'an http:// or https:// URL without a trailing path, such as https://api.example.com' })),
  PORTAL_INSECURE_COOKIES: Type.Enum(['true', 'false'], { default: 'false', description: 'true or false' }),
  REQUEST_LOG: Type.Enum(['on', 'off'], { default: 'on', description: 'on or off' }),
};

/** The base of the links `integration portal-link` prints: `PUBLIC_URL`, else this machine on `PORT`. */
export const publicUrlOf = (publicUrl: string | undefined, port: string): string => {
  if (publicUrl === undefined) return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw new ConfigError('PUBLIC_URL', `must be an http:// or https:// URL (got "${publicUrl}")`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigError('PUBLIC_URL', 'must be a base URL without credentials, query or fragment');
  }
  return publicUrl.replace(/\/+$/, '');
};

import { isIP } from 'node:net';

/** `[2001:db8::1]:443` or `[2001:db8::1]`: the brackets (and port) some proxies write around an IPv6 address. */
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/;
/** `198.51.100.7:1001`: an IPv4 address with the port a proxy received it from. */
const IPV4_AND_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;

/** What the client address is read from: Fastify's request (`ip` honours TRUST_PROXY) and its socket. */
export interface AddressedRequest {
  ip?: string;
  socket?: { remoteAddress?: string };
}

/**
 * The client's address (docs/reference/contract.md §4.5): Fastify's `request.ip`, which is the socket's peer or,
 * with TRUST_PROXY, the X-Forwarded-For entry of the outermost trusted proxy, with the port or brackets a proxy adds
 * stripped. An entry that is still not an IP address falls back to the socket's peer, so that no text a client
 * writes becomes a counter of its own. Undefined once the client has closed the connection: the socket then no
 * longer knows its peer.
 */
export const clientAddress = (request: AddressedRequest): string | undefined => {
  const ip = request.ip;
  if (ip !== undefined) {
    const bare = BRACKETED.exec(ip)?.[1] ?? IPV4_AND_PORT.exec(ip)?.[1] ?? ip;
    if (isIP(bare) !== 0) return bare;
  }
  return request.socket?.remoteAddress;
};

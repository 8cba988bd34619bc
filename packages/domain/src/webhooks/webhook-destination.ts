import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go (docs/operators/security.md): public unicast addresses only, so that a key holder cannot
 * make the service call inside its own network. Loopback, private, CGNAT, multicast, unspecified and the other
 * special ranges are refused unless an operator allows them (`WEBHOOK_ALLOWED_NETWORKS`); link-local and cloud
 * metadata addresses are refused whatever the list says: no receiver lives there, credentials do. An IPv6 address
 * is public only inside 2000::/3 and outside its special ranges; one that embeds an IPv4 address is judged as it.
 */
export const DESTINATION_NOT_ALLOWED = 'destination not allowed';

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Metadata services outside 169.254.0.0/16 and fe80::/10 (AWS over IPv6, Alibaba Cloud). */
const METADATA: readonly Cidr[] = ['fd00:ec2::254/128', '100.100.100.200/32'].map((cidr) => ipaddr.parseCIDR(cidr));

export interface DestinationPolicy {
  /** Whether a connection to this IP address (v4, v6 or v4-mapped v6) may be made. */
  allowsAddress(address: string): boolean;
}

/** Reads `WEBHOOK_ALLOWED_NETWORKS` (comma-separated CIDRs or single addresses); throws naming the bad entry. */
export const parseAllowedNetworks = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part, i) => {
      const cidr = part.includes('/') ? part : `${part}/${ipaddr.IPv6.isValid(part) ? 128 : 32}`;
      if (!ipaddr.isValidCIDR(cidr)) throw new Error(`entry #${i + 1} ("${part}") is not a CIDR range such as 10.20.0.0/16 or fd00::/8`);
      return cidr;
    });

/** v4-mapped v6 addresses (`::ffff:127.0.0.1`) are judged as the IPv4 address they reach. */
const parsed = (address: string): ipaddr.IPv4 | ipaddr.IPv6 | null => {
  // A zone (`fe80::1%eth0`) names an interface: such an address is link-local anyway.
  const bare = address.split('%')[0] ?? address;
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : null;
};

const matches = (ip: ipaddr.IPv4 | ipaddr.IPv6, [network, bits]: Cidr): boolean => {
  if (ip.kind() !== network.kind()) return false;
  return ip.match(network, bits);
};

/** The global unicast space: an IPv6 address outside it is special (documentation, NAT64, 6to4 relays…) or internal. */
const GLOBAL_UNICAST: Cidr = ipaddr.parseCIDR('2000::/3');

/**
 * IPv6 ranges whose last 32 bits are an IPv4 address that a connection to them reaches: IPv4-compatible (`::/96`,
 * which some stacks still send over IPv4), IPv4-translated (RFC 6145) and the NAT64 well-known prefix (RFC 6052,
 * a gateway forwards to the IPv4 address). They are judged as that IPv4 address.
 */
const EMBEDDING_IPV4: readonly Cidr[] = ['::/96', '::ffff:0:0:0/96', '64:ff9b::/96'].map((cidr) => ipaddr.parseCIDR(cidr));

const embeddedIPv4 = (ip: ipaddr.IPv6): ipaddr.IPv4 => {
  const bytes = ip.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12));
};

export const makeDestinationPolicy = (allowedNetworks: readonly string[] = []): DestinationPolicy => {
  const allowed = allowedNetworks.map((cidr) => ipaddr.parseCIDR(cidr));
  const isAllowed = (ip: ipaddr.IPv4 | ipaddr.IPv6) => allowed.some((cidr) => matches(ip, cidr));
  const neverAllowed = (ip: ipaddr.IPv4 | ipaddr.IPv6) => ip.range() === 'linkLocal' || METADATA.some((cidr) => matches(ip, cidr));
  const allowsIPv4 = (ip: ipaddr.IPv4): boolean => {
    if (neverAllowed(ip)) return false;
    return ip.range() === 'unicast' || isAllowed(ip);
  };
  const allowsIPv6 = (ip: ipaddr.IPv6): boolean => {
    if (EMBEDDING_IPV4.some((cidr) => matches(ip, cidr))) {
      const v4 = embeddedIPv4(ip);
      // The IPv6 spelling may be allowed itself (`::1/128` for a local receiver), never to reach metadata.
      return !neverAllowed(v4) && (allowsIPv4(v4) || isAllowed(ip));
    }
    if (neverAllowed(ip)) return false;
    // ipaddr.js names the special ranges inside 2000::/3 (6to4, Teredo, documentation, benchmarking…): not unicast.
    return (matches(ip, GLOBAL_UNICAST) && ip.range() === 'unicast') || isAllowed(ip);
  };
  return {
    allowsAddress(address) {
      const ip = parsed(address);
      if (ip === null) return false;
      return ip.kind() === 'ipv4' ? allowsIPv4(ip as ipaddr.IPv4) : allowsIPv6(ip as ipaddr.IPv6);
    },
  };
};

/** The host of a URL as an IP address, when it is one (`[::1]` unbracketed), else null (a name, resolved later). */
export const addressLiteralOf = (url: URL): string | null => {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return ipaddr.isValid(host) ? host : null;
};

/**
 * Why a configured webhook URL is refused, or null: the scheme, credentials in it, or an address literal that the
 * policy refuses. A name is judged later, on each connection, on the addresses it resolves to.
 */
export const webhookUrlProblem = (value: string, policy: DestinationPolicy): string | null => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (user:password@)';
  const literal = addressLiteralOf(url);
  if (literal !== null && !policy.allowsAddress(literal)) {
    return 'must not point to a loopback, private, link-local or other internal address (WEBHOOK_ALLOWED_NETWORKS allows some)';
  }
  return null;
};

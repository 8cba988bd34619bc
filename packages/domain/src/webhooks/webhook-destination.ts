import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go (docs/operators/security.md): public unicast addresses only, so that a key holder cannot
 * make the service call inside its own network. Loopback, private, CGNAT, multicast, unspecified and the other
 * special ranges are refused unless an operator allows them (`WEBHOOK_ALLOWED_NETWORKS`); link-local and cloud
 * metadata addresses are refused whatever the list says: no receiver lives there, credentials do.
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

export const makeDestinationPolicy = (allowedNetworks: readonly string[] = []): DestinationPolicy => {
  const allowed = allowedNetworks.map((cidr) => ipaddr.parseCIDR(cidr));
  return {
    allowsAddress(address) {
      const ip = parsed(address);
      if (ip === null) return false;
      const range = ip.range();
      if (range === 'linkLocal' || METADATA.some((cidr) => matches(ip, cidr))) return false;
      if (range === 'unicast') return true;
      return allowed.some((cidr) => matches(ip, cidr));
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

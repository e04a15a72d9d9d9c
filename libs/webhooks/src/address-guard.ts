import { BlockList, isIP } from 'node:net';
import { Environment } from '@pixauto/contracts';

// SSRF protection (docs/decisions/webhooks.md): a merchant's webhook URL must not reach our own network. The host is resolved at
// delivery time and every address it resolves to is checked, so a DNS name pointing inside is refused like an IP.
// Link-local (cloud metadata) and reserved addresses are refused in every mode; loopback only where development
// allows it and never on the platform's own ports; private ranges only where an operator opened them by name.

/** What an address is, as far as webhooks are concerned. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved';

const range = (entries: [string, number][]): BlockList => {
  const list = new BlockList();
  for (const [network, prefix] of entries) list.addSubnet(network, prefix, isIP(network) === 4 ? 'ipv4' : 'ipv6');
  return list;
};

const LOOPBACK = range([
  ['127.0.0.0', 8],
  ['::1', 128],
]);
const LINK_LOCAL = range([
  ['169.254.0.0', 16], // cloud metadata (169.254.169.254) lives here
  ['fe80::', 10],
]);
/** The ranges an operator may open (WEBHOOK_ALLOW_PRIVATE_NETWORKS names networks inside them). */
const PRIVATE_RANGES: [string, number][] = [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['fc00::', 7], // unique local
];
const PRIVATE = range(PRIVATE_RANGES);
const RESERVED = range([
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches this host
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
  ['::', 96], // unspecified, and the deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0:0', 96], // IPv4-translated
  ['64:ff9b::', 96], // NAT64 embeds an IPv4 address
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
]);

/** The IPv4 address an IPv4-mapped IPv6 address carries (`::ffff:a.b.c.d` or its hex form), if it is one. */
function mappedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Classifies an IP address; an IPv4-mapped IPv6 address is what its IPv4 address is. Anything not an IP is reserved. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  const v4 = family === 6 ? mappedIpv4(address) : address;
  const [ip, type] = v4 !== undefined && isIP(v4) === 4 ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
  if (LOOPBACK.check(ip, type)) return 'loopback';
  if (LINK_LOCAL.check(ip, type)) return 'link-local';
  if (PRIVATE.check(ip, type)) return 'private';
  if (RESERVED.check(ip, type)) return 'reserved';
  return 'public';
}

/** Whether an IP address is one a webhook may not reach in production: anything but a public address. */
export function isForbiddenAddress(address: string): boolean {
  return classifyAddress(address) !== 'public';
}

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_LOOPBACK: the environments whose webhooks may reach loopback, over http too (development, tests). */
  loopback: readonly Environment[];
  /** WEBHOOK_RESERVED_PORTS and the dispatcher's own ports: loopback ports a webhook never reaches (our listeners). */
  reservedPorts: ReadonlySet<number>;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: private networks an operator opened (https only); none by default. */
  privateNetworks: BlockList;
}

/** Everything refused: what production runs with when nothing is set. */
export const STRICT_POLICY: TargetPolicy = { loopback: [], reservedPorts: new Set(), privateNetworks: new BlockList() };

/** Where one request would go: the URL's scheme and port, the tenant's environment. */
export interface Target {
  protocol: 'http:' | 'https:';
  port: number;
  environment: Environment;
}

/** The scheme, port and environment of a webhook URL, or why it may not be called at all, before any resolution. */
export function targetOf(url: string, environment: Environment, policy: TargetPolicy): Target | { refused: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refused: 'the webhook URL is not a valid URL' };
  }
  const protocol = parsed.protocol;
  // Plain http only where loopback is allowed; the address check then holds it to loopback.
  if (protocol !== 'https:' && !(protocol === 'http:' && policy.loopback.includes(environment))) {
    return { refused: `the webhook URL must use https (got ${protocol.replace(/:$/, '')})` };
  }
  const port = parsed.port === '' ? (protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  return { protocol, port, environment };
}

/** Why a URL may not be called at all, before any resolution; undefined when it may. */
export function refusedUrl(url: string, environment: Environment, policy: TargetPolicy): string | undefined {
  const target = targetOf(url, environment, policy);
  return 'refused' in target ? target.refused : undefined;
}

/**
 * A refusal says what kind of address the host resolves to, never the address: the reason is kept in the delivery
 * log and answered to the merchant, and an internal name's private address is the network's map, not theirs.
 */
const PRIVATE_ADDRESS = 'the webhook host resolves to a private or reserved address';

/** Why this resolved address may not be reached for this target; undefined when it may. */
export function refusedAddress(address: string, target: Target, policy: TargetPolicy): string | undefined {
  const kind = classifyAddress(address);
  if (kind === 'loopback') {
    if (!policy.loopback.includes(target.environment)) return PRIVATE_ADDRESS;
    if (policy.reservedPorts.has(target.port)) return `the webhook host resolves to loopback on port ${target.port}, one of the platform's own`;
    return undefined;
  }
  const ip = mappedIpv4(address) ?? address;
  const opened = kind === 'private' && policy.privateNetworks.check(ip, isIP(ip) === 4 ? 'ipv4' : 'ipv6');
  if (kind !== 'public' && !opened) return PRIVATE_ADDRESS;
  if (target.protocol === 'http:') return 'the webhook URL must use https unless its host is loopback';
  return undefined;
}

/**
 * The policy the dispatcher's settings describe; throws on a value it does not understand (a typo must not open or
 * close more than the operator meant). `ownPorts` are the dispatcher's own listeners, always reserved.
 */
export function targetPolicyFrom(env: Record<string, string | undefined>, ownPorts: number[] = []): TargetPolicy {
  return {
    loopback: loopbackSetting(env.WEBHOOK_ALLOW_LOOPBACK),
    reservedPorts: new Set([...portsSetting(env.WEBHOOK_RESERVED_PORTS), ...ownPorts]),
    privateNetworks: privateNetworksSetting(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS),
  };
}

function loopbackSetting(value = ''): Environment[] {
  switch (value.trim()) {
    case '':
    case 'false':
      return [];
    case 'sandbox':
      return ['sandbox'];
    case 'all':
      return ['sandbox', 'production'];
    default:
      throw new Error(`WEBHOOK_ALLOW_LOOPBACK must be sandbox, all or unset (got ${value})`);
  }
}

/** `4009,4059,13000-13002`: ports and ranges of ports. */
function portsSetting(value = ''): number[] {
  const ports: number[] = [];
  for (const item of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(item);
    const [from, to] = match ? [Number(match[1]), Number(match[2] ?? match[1])] : [NaN, NaN];
    if (!(from >= 1 && to <= 65535 && from <= to)) throw new Error(`WEBHOOK_RESERVED_PORTS must list ports or ranges of ports (got ${item})`);
    for (let port = from; port <= to; port += 1) ports.push(port);
  }
  return ports;
}

/** `10.20.0.0/16,fd00:1::/64`: networks inside the private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7). */
function privateNetworksSetting(value = ''): BlockList {
  const networks = new BlockList();
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== 'false');
  for (const item of items) {
    const [network, prefixText] = item.split('/');
    const family = isIP(network ?? '');
    const prefix = Number(prefixText);
    const inside = PRIVATE_RANGES.some(
      ([base, bits]) => isIP(base) === family && prefix >= bits && range([[base, bits]]).check(network, family === 4 ? 'ipv4' : 'ipv6'),
    );
    if (family === 0 || !Number.isInteger(prefix) || prefix > (family === 4 ? 32 : 128) || !inside) {
      throw new Error(
        `WEBHOOK_ALLOW_PRIVATE_NETWORKS must list networks inside 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10 or fc00::/7 (got ${item})`,
      );
    }
    networks.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return networks;
}

/** How the dispatcher describes its policy when it starts. */
export function describePolicy(policy: TargetPolicy): string {
  const loopback =
    policy.loopback.length === 0
      ? 'loopback refused'
      : `loopback over http allowed for ${policy.loopback.join(' and ')} (except ${policy.reservedPorts.size} reserved ports)`;
  const opened = policy.privateNetworks.rules.length === 0 ? 'private networks refused' : `private networks opened: ${policy.privateNetworks.rules.join('; ')}`;
  return `${loopback}; ${opened}; link-local and reserved addresses refused`;
}

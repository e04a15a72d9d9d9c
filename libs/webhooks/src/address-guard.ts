import { BlockList, isIP } from 'node:net';

// SSRF protection (platform.md §5): a merchant's webhook URL must not reach our own network. The host is resolved at
// delivery time and every address it resolves to is checked, so a DNS name pointing inside is refused like an IP.

const blocked = new BlockList();
const IPV4_RANGES: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const IPV6_RANGES: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64 embeds an IPv4 address
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];
for (const [network, prefix] of IPV4_RANGES) blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of IPV6_RANGES) blocked.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (IPv4-mapped `::ffff:a.b.c.d` or its hex form), if it carries one. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether an IP address is one a webhook may not reach: private, loopback, link-local, unique-local, multicast, metadata. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all
  const v4 = embeddedIpv4(address);
  if (v4 !== undefined) return blocked.check(v4, 'ipv4');
  return blocked.check(address, 'ipv6');
}

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: local development and tests, where receivers run on loopback over http. */
  allowPrivateNetworks: boolean;
}

/** Why a URL may not be called at all, before any resolution; undefined when it may be. */
export function refusedUrl(url: string, policy: TargetPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'the webhook URL is not a valid URL';
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && policy.allowPrivateNetworks) return undefined;
  return `the webhook URL must use https (got ${parsed.protocol.replace(/:$/, '')})`;
}

/** Why this resolved address may not be reached; undefined when it may. */
export function refusedAddress(address: string, policy: TargetPolicy): string | undefined {
  if (policy.allowPrivateNetworks || !isForbiddenAddress(address)) return undefined;
  return `the webhook host resolves to a private or reserved address (${address})`;
}

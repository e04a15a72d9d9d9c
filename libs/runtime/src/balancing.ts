import { isIP } from 'node:net';

// The pure part of a service's client (ServiceClient): which replica a request goes to, how long one that refused a
// connection is left out, and how an address setting reads. docs/decisions/service-balancing.md says why.

/** One `host:port` of an address setting: an IP is one replica; a name is as many as its DNS records, re-resolved. */
export interface AddressEntry {
  host: string;
  port: number;
  /** True for a DNS name (a headless Service's name gives one A record per ready pod). */
  resolved: boolean;
}

/**
 * `127.0.0.1:4005`, `10.0.0.7:4005,10.0.0.8:4005`, `limits-service:4005` or a mix; an IPv6 address in brackets
 * (`[::1]:4005`). Throws on an entry without a port: a setting that cannot be read stops the app at start-up.
 */
export function parseAddresses(setting: string): AddressEntry[] {
  const entries = setting
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new Error(`no address in "${setting}"`);
  return entries.map((entry) => {
    const colon = entry.lastIndexOf(':');
    const port = Number(entry.slice(colon + 1));
    const host = entry.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
    if (colon <= 0 || !Number.isInteger(port) || port <= 0 || port > 65_535 || host === '') throw new Error(`"${entry}" is not host:port`);
    return { host, port, resolved: isIP(host) === 0 };
  });
}

/** What the choice reads of a replica. */
export interface ReplicaLoad {
  /** Requests sent to it and not answered yet (by this process). */
  outstanding: number;
  /** Left out until then (ms, performance.now()): its last connection attempt failed. 0 when up. */
  downUntil: number;
}

/**
 * The index of the replica the next request goes to, or -1 when every one was tried already (`tried` holds the
 * replicas themselves, not their indexes: a new resolution of the service's name may reorder the list meanwhile). Among the replicas that are up, the
 * one with the fewest requests outstanding; ties go round robin from `cursor` (the caller moves it past each choice),
 * so with no load at all the requests take turns. When none is up, the one whose backoff ends first: a request
 * tries it rather than being refused untried, and a service of one replica is used again at once after its restart.
 */
export function pickReplica<R extends ReplicaLoad>(replicas: readonly R[], nowMs: number, cursor: number, tried: ReadonlySet<R> = new Set()): number {
  let best = -1;
  let soonestDown = -1;
  for (let step = 0; step < replicas.length; step++) {
    const index = (cursor + step) % replicas.length;
    const replica = replicas[index];
    if (tried.has(replica)) continue;
    if (replica.downUntil > nowMs) {
      if (soonestDown < 0 || replica.downUntil < replicas[soonestDown].downUntil) soonestDown = index;
    } else if (best < 0 || replica.outstanding < replicas[best].outstanding) best = index;
  }
  return best >= 0 ? best : soonestDown;
}

/** The first failed connection leaves a replica out for 250 ms; each failure after doubles it, up to 5 s. */
export const REPLICA_BACKOFF_MS = { first: 250, max: 5_000 } as const;

export const replicaBackoffMs = (consecutiveFailures: number): number =>
  Math.min(REPLICA_BACKOFF_MS.first * 2 ** Math.max(0, consecutiveFailures - 1), REPLICA_BACKOFF_MS.max);

import { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { Agent, errors, request } from 'undici';
import { Environment } from '@pixauto/contracts';
import { refusedAddress, STRICT_POLICY, Target, TargetPolicy, targetOf } from './address-guard';
import { AttemptResult } from './attempt-outcome';

// One webhook request (Standard Webhooks): signed with every secret in effect, POSTed without following redirects,
// answered within 15 s or counted as no answer. The URL's host is resolved when the connection is made and the
// address it connects to is the one checked, so DNS cannot answer one address to the check and another to the socket.

export const WEBHOOK_TIMEOUT_MS = 15_000;
/** How much of an endpoint's answer the delivery log keeps. */
const RESPONSE_HEAD_BYTES = 1024;

export interface SentAttempt {
  result: AttemptResult;
  latencyMs: number;
  responseBody: string | null;
}

/** Every address a host name resolves to (dns.lookup with `all` by default; tests answer names themselves). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface SenderOptions {
  timeoutMs?: number;
  resolve?: Resolver;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

class RefusedTarget extends Error {}

/** A dns.lookup for net.connect that refuses a host when any address it resolves to may not be reached for `target`. */
function guardedLookup(target: Target, policy: TargetPolicy, resolve: Resolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
        const refused = addresses.map((a) => refusedAddress(a.address, target, policy)).find((reason) => reason !== undefined);
        if (refused) return callback(new RefusedTarget(refused), []);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

/** Standard Webhooks headers: one `v1,` signature per secret in effect, space-separated (a rotation's overlap). */
export function signatureHeaders(id: string, sentAt: Date, body: string, secrets: readonly string[]): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, sentAt, body)).join(' '),
  };
}

/**
 * Sends webhooks under a target policy. The checks depend on the scheme, the tenant's environment and whether the
 * port is one of ours, which the resolver is not told, so each combination has its own connection pool.
 */
export class WebhookSender {
  private readonly agents = new Map<string, Agent>();
  private readonly timeoutMs: number;
  private readonly resolve: Resolver;

  constructor(
    private readonly policy: TargetPolicy = STRICT_POLICY,
    options: SenderOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.resolve = options.resolve ?? ((hostname) => dnsLookup(hostname, { all: true }));
  }

  async send(url: string, environment: Environment, headers: Record<string, string>, body: string): Promise<SentAttempt> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = targetOf(url, environment, this.policy);
    if ('refused' in target) return refusedAttempt(target.refused);
    const literal = refusedLiteral(url, target, this.policy);
    if (literal !== undefined) return refusedAttempt(literal);
    try {
      const answer = await request(url, {
        method: 'POST',
        dispatcher: this.agentFor(target),
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'pixauto-webhooks/1' },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const responseBody = await readHead(answer.body);
      return { result: { kind: 'answered', statusCode: answer.statusCode }, latencyMs: elapsed(), responseBody };
    } catch (error) {
      return { result: failureOf(error, this.timeoutMs), latencyMs: elapsed(), responseBody: null };
    }
  }

  /**
   * Why a request to `url` would be refused, checked before anything is recorded (a test event): the scheme and port,
   * an IP written in it, and what its host resolves to now. A name that does not resolve is left to the attempt.
   */
  async refusal(url: string, environment: Environment): Promise<string | undefined> {
    const target = targetOf(url, environment, this.policy);
    if ('refused' in target) return target.refused;
    const literal = refusedLiteral(url, target, this.policy);
    if (literal !== undefined || isIP(new URL(url).hostname.replace(/^\[|\]$/g, ''))) return literal;
    const addresses = await this.resolve(new URL(url).hostname).catch((): LookupAddress[] => []);
    return addresses.map((a) => refusedAddress(a.address, target, this.policy)).find((reason) => reason !== undefined);
  }

  async close(): Promise<void> {
    await Promise.all([...this.agents.values()].map((agent) => agent.close()));
  }

  private agentFor(target: Target): Agent {
    // A reserved port is checked as itself; every other port is checked alike, so it shares one pool.
    const checked: Target = this.policy.reservedPorts.has(target.port) ? target : { ...target, port: 0 };
    const key = `${checked.environment} ${checked.protocol} ${checked.port}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new Agent({
        connect: { lookup: guardedLookup(checked, this.policy, this.resolve) as never, timeout: Math.min(5000, this.timeoutMs) },
        keepAliveTimeout: 30_000,
        // No cap per origin here: the dispatcher limits requests per tenant's endpoint, and tenants may share a host.
      });
      this.agents.set(key, agent);
    }
    return agent;
  }
}

const refusedAttempt = (error: string): SentAttempt => ({ result: { kind: 'refused', error }, latencyMs: 0, responseBody: null });

/** An IP written in the URL is never resolved, so the lookup's check would not see it. */
function refusedLiteral(url: string, target: Target, policy: TargetPolicy): string | undefined {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? refusedAddress(host, target, policy) : undefined;
}

async function readHead(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_HEAD_BYTES) {
      body.destroy(); // the rest is not read: a huge answer must not hold the delivery
      break;
    }
  }
  const text = Buffer.concat(chunks).subarray(0, RESPONSE_HEAD_BYTES).toString('utf8');
  return text.length > 0 ? text : null;
}

function failureOf(error: unknown, timeoutMs: number): AttemptResult {
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof RefusedTarget || cause instanceof RefusedTarget)
    return { kind: 'refused', error: (cause instanceof RefusedTarget ? cause : (error as Error)).message };
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError' || error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return { kind: 'down', error: `no answer within ${timeoutMs} ms` };
  }
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  return { kind: 'down', error: code ? `${code}: ${(error as Error).message}` : String((error as Error).message ?? error) };
}

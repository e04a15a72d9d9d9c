import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { Agent, errors, request } from 'undici';
import { refusedAddress, refusedUrl, TargetPolicy } from './address-guard';
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

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

class RefusedTarget extends Error {}

/** dns.lookup that refuses a host resolving to any address a webhook may not reach. */
function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, []);
      const refused = addresses.map((a) => refusedAddress(a.address, policy)).find((reason) => reason !== undefined);
      if (refused) return callback(new RefusedTarget(refused), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
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

export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly policy: TargetPolicy, private readonly timeoutMs = WEBHOOK_TIMEOUT_MS) {
    this.agent = new Agent({
      connect: { lookup: guardedLookup(policy) as never, timeout: Math.min(5000, timeoutMs) },
      keepAliveTimeout: 30_000,
      // No cap per origin here: the dispatcher limits requests per tenant's endpoint, and tenants may share a host.
    });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SentAttempt> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const refused = refusedUrl(url, this.policy) ?? refusedLiteral(url, this.policy);
    if (refused) return { result: { kind: 'refused', error: refused }, latencyMs: 0, responseBody: null };
    try {
      const answer = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
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

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** An IP written in the URL is never resolved, so the lookup's check would not see it. */
function refusedLiteral(url: string, policy: TargetPolicy): string | undefined {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? refusedAddress(host, policy) : undefined;
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
  if (error instanceof RefusedTarget || cause instanceof RefusedTarget) return { kind: 'refused', error: (cause instanceof RefusedTarget ? cause : (error as Error)).message };
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError' || error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return { kind: 'down', error: `no answer within ${timeoutMs} ms` };
  }
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  return { kind: 'down', error: code ? `${code}: ${(error as Error).message}` : String((error as Error).message ?? error) };
}

import { Agent, request } from 'undici';
import { bankCalls, outcomeOfStatus } from '@pixauto/metrics';

/**
 * A bank that issues refund receipts, behind one interface: a third bank is one more class (and one line in
 * ReceiptProviders). Every call uses the account's own banking credentials (docs/decisions/receipts.md); nothing is cached but an
 * access token where the bank's scheme has one.
 */
export interface ReceiptProviderClient {
  readonly code: string;
  /** The PDF of a liquidated refund (of a Pix received, or a payout sent back), by its provider identifier (its rtrId). */
  refundReceipt(credentials: Record<string, unknown>, providerRefundId: string): Promise<Buffer>;
  /** The PDF proving a completed payout was paid, by its end-to-end id. */
  payoutReceipt(credentials: Record<string, unknown>, endToEndId: string): Promise<Buffer>;
  close(): Promise<void>;
}

/** The bank refused, failed, or did not answer in time: `message` is the bank's own words where it gave any. */
export class ProviderRefusal extends Error {
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderRefusal';
  }
}

export interface ProviderConnection {
  /** The provider's API root, e.g. http://127.0.0.1:4010/provider-a. */
  url: string;
  /** Every call's whole time limit (connect, headers and body). */
  timeoutMs: number;
  /** Real time in ms (token expiry, request timestamps). */
  nowMs?: () => number;
}

export interface ProviderAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTP exchange with a time limit on the whole of it; a bank that cannot be reached or is too slow is a ProviderRefusal. */
export class ProviderHttp {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 32 });

  constructor(
    private readonly provider: string,
    private readonly connection: ProviderConnection,
  ) {}

  /** `route` names the operation in the metrics: the path with its identifier as `:id`. */
  async exchange(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string, route = path): Promise<ProviderAnswer> {
    const signal = AbortSignal.timeout(this.connection.timeoutMs);
    const started = performance.now();
    const labels = { bank: this.provider, operation: `${method} ${route}` };
    try {
      const answer = await request(`${this.connection.url}${path}`, { method, headers, body, dispatcher: this.agent, signal });
      const received = { status: answer.statusCode, headers: answer.headers, body: Buffer.from(await answer.body.arrayBuffer()) };
      bankCalls.observe({ ...labels, outcome: outcomeOfStatus(received.status) }, (performance.now() - started) / 1000);
      return received;
    } catch (error) {
      bankCalls.observe({ ...labels, outcome: 'unreachable' }, (performance.now() - started) / 1000);
      if (signal.aborted) throw new ProviderRefusal(this.provider, `${this.provider} did not answer within ${this.connection.timeoutMs} ms`);
      throw new ProviderRefusal(
        this.provider,
        `${this.provider} could not be reached: ${error instanceof Error ? error.message || error.name : String(error)}`,
      );
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** A JSON body, or undefined when it is not JSON. */
export function jsonOf(body: Buffer): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The account's {client_id, client_secret} for a provider, or a refusal naming what is missing. */
export function clientCredentials(provider: string, credentials: Record<string, unknown>): { clientId: string; clientSecret: string } {
  const { client_id: clientId, client_secret: clientSecret } = credentials;
  if (typeof clientId !== 'string' || typeof clientSecret !== 'string' || clientId === '' || clientSecret === '')
    throw new ProviderRefusal(provider, `the account's ${provider} credentials need a client_id and a client_secret`);
  return { clientId, clientSecret };
}

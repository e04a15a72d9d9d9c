import { clientCredentials, jsonOf, ProviderAnswer, ProviderConnection, ProviderHttp, ProviderRefusal, ReceiptProviderClient } from './receipt-provider';

/** Renew a token this long before the bank says it expires. */
const TOKEN_MARGIN_MS = 30_000;

/**
 * PROVIDER_A: OAuth2 client credentials (RFC 6749 §4.4) at `POST /oauth/token`, then `GET /v1/refunds/{id}/receipt`
 * (or `/v1/payouts/{e2eId}/receipt`) with the bearer token, which answers the PDF bytes. Errors are RFC 6749 bodies: `error_description` is the bank's word.
 */
export class ProviderAClient implements ReceiptProviderClient {
  readonly code = 'PROVIDER_A';
  private readonly http: ProviderHttp;
  /** Tokens by client id and secret: new credentials never reuse a token the old ones got. */
  private readonly tokens = new Map<string, { token: string; expiresAtMs: number }>();
  private readonly nowMs: () => number;

  constructor(connection: ProviderConnection) {
    this.http = new ProviderHttp(this.code, connection);
    this.nowMs = connection.nowMs ?? Date.now;
  }

  refundReceipt(credentials: Record<string, unknown>, providerRefundId: string): Promise<Buffer> {
    return this.pdf(credentials, '/v1/refunds/:id/receipt', providerRefundId);
  }

  payoutReceipt(credentials: Record<string, unknown>, endToEndId: string): Promise<Buffer> {
    return this.pdf(credentials, '/v1/payouts/:id/receipt', endToEndId);
  }

  private async pdf(credentials: Record<string, unknown>, route: string, id: string): Promise<Buffer> {
    const client = clientCredentials(this.code, credentials);
    const path = route.replace(':id', encodeURIComponent(id));
    let answer = await this.http.exchange('GET', path, { authorization: `Bearer ${await this.token(client)}`, accept: 'application/pdf' }, undefined, route);
    if (answer.status === 401) {
      // A token the bank no longer knows (it restarted, or revoked it): one new token, one more try.
      this.tokens.delete(keyOf(client));
      answer = await this.http.exchange('GET', path, { authorization: `Bearer ${await this.token(client)}`, accept: 'application/pdf' }, undefined, route);
    }
    if (answer.status !== 200) throw this.refusal(answer);
    return answer.body;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private async token(client: { clientId: string; clientSecret: string }): Promise<string> {
    const key = keyOf(client);
    const cached = this.tokens.get(key);
    if (cached && cached.expiresAtMs > this.nowMs()) return cached.token;
    const basic = Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64');
    const answer = await this.http.exchange(
      'POST',
      '/oauth/token',
      { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      'grant_type=client_credentials',
    );
    const body = jsonOf(answer.body);
    if (answer.status !== 200 || typeof body?.access_token !== 'string') throw this.refusal(answer);
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 60;
    this.tokens.set(key, { token: body.access_token, expiresAtMs: this.nowMs() + expiresIn * 1000 - TOKEN_MARGIN_MS });
    return body.access_token;
  }

  private refusal(answer: ProviderAnswer): ProviderRefusal {
    const body = jsonOf(answer.body);
    const words = typeof body?.error_description === 'string' ? body.error_description : typeof body?.error === 'string' ? body.error : `HTTP ${answer.status}`;
    return new ProviderRefusal(this.code, words);
  }
}

const keyOf = (client: { clientId: string; clientSecret: string }): string => `${client.clientId}\u0000${client.clientSecret}`;

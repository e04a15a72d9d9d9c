import { createHmac } from 'node:crypto';
import { clientCredentials, jsonOf, ProviderConnection, ProviderHttp, ProviderRefusal, ReceiptProviderClient } from './receipt-provider';

/**
 * PROVIDER_B: every request carries the API key (`X-Api-Key`: client_id), a Unix timestamp (`X-Timestamp`) and
 * `X-Signature`, the hex HMAC-SHA256 of "timestamp\nMETHOD\npath" with client_secret. `GET
 * /api/v2/refunds/{id}/receipt` (and `/api/v2/payouts/{e2eId}/receipt`) answers JSON with the PDF in base64; errors are
 * `{status, code, message}`.
 */
export class ProviderBClient implements ReceiptProviderClient {
  readonly code = 'PROVIDER_B';
  private readonly http: ProviderHttp;
  private readonly nowMs: () => number;
  private readonly basePath: string;

  constructor(connection: ProviderConnection) {
    this.http = new ProviderHttp(this.code, connection);
    this.nowMs = connection.nowMs ?? Date.now;
    this.basePath = new URL(connection.url).pathname.replace(/\/+$/, '');
  }

  refundReceipt(credentials: Record<string, unknown>, providerRefundId: string): Promise<Buffer> {
    return this.pdf(credentials, '/api/v2/refunds/:id/receipt', providerRefundId);
  }

  payoutReceipt(credentials: Record<string, unknown>, endToEndId: string): Promise<Buffer> {
    return this.pdf(credentials, '/api/v2/payouts/:id/receipt', endToEndId);
  }

  private async pdf(credentials: Record<string, unknown>, route: string, id: string): Promise<Buffer> {
    const client = clientCredentials(this.code, credentials);
    const path = route.replace(':id', encodeURIComponent(id));
    const timestamp = String(Math.floor(this.nowMs() / 1000));
    // The bank signs the path as it receives it: with the base URL's own path in front.
    const signature = createHmac('sha256', client.clientSecret).update(`${timestamp}\nGET\n${this.basePath}${path}`).digest('hex');
    const answer = await this.http.exchange(
      'GET',
      path,
      { 'x-api-key': client.clientId, 'x-timestamp': timestamp, 'x-signature': signature, accept: 'application/json' },
      undefined,
      route,
    );
    const body = jsonOf(answer.body);
    const receipt = body?.receipt as { content?: unknown } | undefined;
    if (answer.status === 200 && typeof receipt?.content === 'string') return Buffer.from(receipt.content, 'base64');
    throw new ProviderRefusal(this.code, typeof body?.message === 'string' ? body.message : `HTTP ${answer.status}`);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

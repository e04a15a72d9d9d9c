import { Logger } from '@nestjs/common';
import { Agent, request } from 'undici';
import type { RecNotificacao, WebhookRecCallback } from '@pixauto/bank';

export interface WebhookDeliveryOptions {
  retryDelaysMs: number[];
  timeoutMs: number;
}

/** The callback address: {webhookUrl}/rec (the spec's "{$request.body#/webhookUrl}/rec"), without a doubled slash. */
export const callbackUrl = (webhookUrl: string): string => `${webhookUrl.replace(/\/+$/, '')}/rec`;

/**
 * Delivers the `rec` callback of PUT /webhookrec: one POST per status change, retried after each configured
 * wait when the receiver fails (no answer or not 2xx), then logged and dropped. In memory only: a delivery
 * pending when the simulator stops is lost (the recurrence itself can always be read with GET /rec/{idRec}).
 */
export class WebhookNotifier {
  private readonly logger = new Logger('WebhookNotifier');
  private readonly agent = new Agent({ keepAliveTimeout: 5_000, connections: 8 });
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly options: WebhookDeliveryOptions) {}

  notify(webhookUrl: string, rec: RecNotificacao): void {
    this.attempt(callbackUrl(webhookUrl), { recs: [rec] }, 0);
  }

  private attempt(url: string, body: WebhookRecCallback, attempt: number): void {
    if (this.stopped) return;
    const delivery = this.post(url, body).then((failure) => {
      if (failure === undefined || this.stopped) return;
      const wait = this.options.retryDelaysMs[attempt];
      const what = `${body.recs[0].idRec} ${body.recs[0].status} to ${url}`;
      if (wait === undefined) {
        this.logger.warn(`giving up delivering ${what} after ${attempt + 1} attempts: ${failure}`);
        return;
      }
      this.logger.warn(`delivering ${what} failed (${failure}), retrying in ${wait} ms`);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.attempt(url, body, attempt + 1);
      }, wait);
      this.timers.add(timer);
    });
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  /** undefined when delivered, else why not. */
  private async post(url: string, body: WebhookRecCallback): Promise<string | undefined> {
    try {
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        dispatcher: this.agent,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      await response.body.dump();
      return response.statusCode >= 200 && response.statusCode < 300 ? undefined : `HTTP ${response.statusCode}`;
    } catch (error) {
      return error instanceof Error ? error.message || error.name : String(error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
    await this.agent.close();
  }
}

import { Logger } from '@nestjs/common';
import { Agent, request } from 'undici';
import type {
  CobRNotification,
  Pagamento,
  PixRecebido,
  RecNotificacao,
  WebhookCobRCallback,
  WebhookPagamentosCallback,
  WebhookPixCallback,
  WebhookRecCallback,
} from '@pixauto/bank';
import type { CallbackKind } from './domain/records';

export interface WebhookDeliveryOptions {
  retryDelaysMs: number[];
  timeoutMs: number;
}

/**
 * One thing to push: a recurrence's status change (rec callback), a recurring charge's (cobr), a Pix received on a key
 * with a webhook (pix), a payout's creation or status change (pagamentos).
 */
export type Notification =
  | { kind: 'rec'; rec: RecNotificacao }
  | { kind: 'cobr'; cobr: CobRNotification }
  | { kind: 'pix'; pix: PixRecebido }
  | { kind: 'pagamentos'; pagamento: Pagamento };

/**
 * The callback address: {webhookUrl}/rec, /cobr, /pix (the spec's "{$request.body#/webhookUrl}/rec" ...) or, ours,
 * /pagamentos, without a doubled slash.
 */
export const callbackUrl = (webhookUrl: string, kind: CallbackKind): string => `${webhookUrl.replace(/\/+$/, '')}/${kind}`;

/**
 * The callback's body: WebhookRecBody {recs: [...]}, WebhookCobRBody {cobsr: [...]}, WebhookPixBody {pix: [...]} or
 * {pagamentos: [...]}. The spec's bodies are lists: the changes made in one moment go to one address in one POST (all
 * of one kind, as the address is per kind).
 */
export const callbackBody = (notifications: Notification[]): WebhookRecCallback | WebhookCobRCallback | WebhookPixCallback | WebhookPagamentosCallback => {
  switch (notifications[0]?.kind) {
    case 'rec':
      return { recs: notifications.flatMap((n) => (n.kind === 'rec' ? [n.rec] : [])) };
    case 'pix':
      return { pix: notifications.flatMap((n) => (n.kind === 'pix' ? [n.pix] : [])) };
    case 'pagamentos':
      return { pagamentos: notifications.flatMap((n) => (n.kind === 'pagamentos' ? [n.pagamento] : [])) };
    default:
      return { cobsr: notifications.flatMap((n) => (n.kind === 'cobr' ? [n.cobr] : [])) };
  }
};

/** At most this many changes in one callback. */
const MAX_PER_CALLBACK = 100;

const describeOne = (n: Notification): string => {
  switch (n.kind) {
    case 'rec':
      return `rec ${n.rec.idRec} ${n.rec.status}`;
    case 'cobr':
      return `cobr ${n.cobr.txid} ${n.cobr.status}`;
    case 'pix':
      return `pix ${n.pix.endToEndId}`;
    case 'pagamentos':
      return `pagamento ${n.pagamento.idEnvio} ${n.pagamento.status}`;
    default: {
      const unreachable: never = n;
      return String(unreachable);
    }
  }
};

const describe = (notifications: Notification[]): string => notifications.map(describeOne).join(', ');

/**
 * Delivers the callbacks of PUT /webhookrec, /webhookcobr, /webhook/{chave} and /webhookpagamentos: one POST per address per event-loop turn, retried after each
 * configured wait when the receiver fails (no answer or not 2xx), then logged and dropped. In memory only: a delivery
 * pending when the simulator stops is lost (the resource itself can always be read with GET).
 */
export class WebhookNotifier {
  private readonly logger = new Logger('WebhookNotifier');
  private readonly agent = new Agent({ keepAliveTimeout: 5_000, connections: 8 });
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly options: WebhookDeliveryOptions) {}

  /** Changes waiting for the end of this event-loop turn, by callback address. */
  private readonly waiting = new Map<string, Notification[]>();

  notify(webhookUrl: string, notification: Notification): void {
    const url = callbackUrl(webhookUrl, notification.kind);
    const waiting = this.waiting.get(url);
    if (waiting) {
      waiting.push(notification);
      return;
    }
    this.waiting.set(url, [notification]);
    // Whatever else changes in this turn joins the same POST: a busy bank sends a callback per batch, not per change.
    setImmediate(() => this.send(url));
  }

  private send(url: string): void {
    const notifications = this.waiting.get(url) ?? [];
    this.waiting.delete(url);
    for (let start = 0; start < notifications.length; start += MAX_PER_CALLBACK) {
      const part = notifications.slice(start, start + MAX_PER_CALLBACK);
      this.attempt(url, JSON.stringify(callbackBody(part)), describe(part), 0);
    }
  }

  private attempt(url: string, body: string, what: string, attempt: number): void {
    if (this.stopped) return;
    const delivery = this.post(url, body).then((failure) => {
      if (failure === undefined || this.stopped) return;
      const wait = this.options.retryDelaysMs[attempt];
      if (wait === undefined) {
        this.logger.warn(`giving up delivering ${what} to ${url} after ${attempt + 1} attempts: ${failure}`);
        return;
      }
      this.logger.warn(`delivering ${what} to ${url} failed (${failure}), retrying in ${wait} ms`);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.attempt(url, body, what, attempt + 1);
      }, wait);
      this.timers.add(timer);
    });
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  /** undefined when delivered, else why not. */
  private async post(url: string, body: string): Promise<string | undefined> {
    try {
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
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

import { Logger } from '@nestjs/common';
import { Environment } from '@pixauto/contracts';
import { webhookDeliveries, webhookReceiverLatency } from '@pixauto/metrics';
import { Clock } from '@pixauto/pix';
import { SecretBox } from '@pixauto/secrets';
import { afterAttempt } from './attempt-outcome';
import { CircuitBreaker } from './circuit-breaker';
import { DeliveryStore } from './delivery-store';
import { DeliveryToSend } from './event-intake';
import { signatureHeaders, WebhookSender } from './webhook-sender';

export interface DispatcherOptions {
  /** Requests in flight to one endpoint (a tenant's scheme, host and port) at most: a slow endpoint holds only its own slots. */
  perEndpoint: number;
  /** How long a claimed delivery is ours; after a crash, another instance (or the restart) takes it when it ends. */
  leaseMs: number;
  /** Deliveries held in memory at most (queued and in flight); the rest wait in the table. */
  maxHeld: number;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = { perEndpoint: 8, leaseMs: 60_000, maxHeld: 5000 };

const SECRET_CACHE_MS = 5000;

/**
 * Sends deliveries: those of one group one at a time in their order (a resource's events arrive in the order they
 * happened while its endpoint answers), at most `perEndpoint` at once per endpoint, none to an endpoint whose
 * circuit is open. What it holds is leased in the table, so a crash loses nothing: the lease ends and it is sent again.
 */
export class WebhookDispatcher {
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly held = new Set<string>();
  private readonly groups = new Map<string, { queue: DeliveryToSend[]; busy: boolean }>();
  private readonly endpoints = new Map<string, { inFlight: number; waiting: string[] }>();
  private readonly secrets = new Map<string, { secrets: string[]; readAt: number }>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly store: DeliveryStore,
    private readonly sender: WebhookSender,
    private readonly breaker: CircuitBreaker,
    private readonly clock: Clock,
    /** Opens the signing secrets, sealed in the account events and in webhook_secrets. */
    private readonly secretBox: SecretBox,
    private readonly options: DispatcherOptions = DEFAULT_DISPATCHER_OPTIONS,
  ) {}

  get capacity(): number {
    return Math.max(0, this.options.maxHeld - this.held.size);
  }

  leaseUntil(): Date {
    return new Date(this.clock.now().getTime() + this.options.leaseMs);
  }

  /** Takes what is due from the table (retries, deliveries of a crashed instance, manual retries); true when there may be more. */
  async claimDue(): Promise<boolean> {
    const limit = Math.min(500, this.capacity);
    if (limit === 0) return false;
    const claimed = await this.store.claimDue(this.clock.now(), this.leaseUntil(), limit);
    this.enqueue(claimed);
    return claimed.length === limit;
  }

  /** Queues first, then starts: a group's deliveries of one batch go out by sequence, whatever order they came in. */
  enqueue(deliveries: DeliveryToSend[]): void {
    const touched = new Set<string>();
    for (const delivery of deliveries) {
      if (this.held.has(delivery.id)) continue;
      this.held.add(delivery.id);
      const key = groupKey(delivery);
      const group = this.groups.get(key) ?? { queue: [], busy: false };
      this.groups.set(key, group);
      group.queue.push(delivery);
      touched.add(key);
    }
    for (const key of touched) {
      this.groups.get(key)?.queue.sort((a, b) => a.sequence - b.sequence);
      this.pump(key);
    }
  }

  /** Waits for the requests in flight (shutdown); what is queued stays leased and is taken again after the lease. */
  async drain(): Promise<void> {
    this.groups.clear();
    await Promise.all([...this.inFlight]);
  }

  private pump(key: string): void {
    const group = this.groups.get(key);
    if (!group || group.busy) return;
    const next = group.queue[0];
    if (!next) {
      this.groups.delete(key);
      return;
    }
    const endpoint = endpointOf(next);
    const slots = this.endpoints.get(endpoint) ?? { inFlight: 0, waiting: [] };
    this.endpoints.set(endpoint, slots);
    if (slots.inFlight >= this.options.perEndpoint) {
      if (!slots.waiting.includes(key)) slots.waiting.push(key);
      return;
    }
    group.queue.shift();
    group.busy = true;
    slots.inFlight += 1;
    const attempt = this.attempt(next, endpoint)
      .catch((error: unknown) => this.logger.warn(`delivery ${next.id}: ${String(error)} (it is taken again when its lease ends)`))
      .finally(() => {
        this.inFlight.delete(attempt);
        this.held.delete(next.id);
        group.busy = false;
        slots.inFlight -= 1;
        this.pump(key);
        while (slots.inFlight < this.options.perEndpoint && slots.waiting.length > 0) this.pump(slots.waiting.shift() as string);
        if (slots.inFlight === 0 && slots.waiting.length === 0) this.endpoints.delete(endpoint);
      });
    this.inFlight.add(attempt);
  }

  private async attempt(delivery: DeliveryToSend, endpoint: string): Promise<void> {
    const now = this.clock.now();
    // A delivery that waited in memory long enough for its lease to run low renews it, or lets it go if lost.
    if (delivery.leased_until.getTime() - now.getTime() < this.options.leaseMs / 3 && !(await this.store.renewLease(delivery, now, this.leaseUntil()))) return;
    const tenant = { accountId: delivery.account_id, environment: delivery.environment };
    const manual = delivery.retry_requested;
    if (!manual) {
      // Manual retries go through: the merchant asked for an attempt now.
      const admission = this.breaker.admit(endpoint, now.getTime());
      if (!admission.admitted) {
        const offset = this.clock.now(tenant).getTime() - now.getTime();
        await this.store.defer(delivery.id, new Date(admission.retryAtMs + offset));
        webhookDeliveries.inc({ outcome: 'deferred' });
        return;
      }
    }
    // The delivery's own environment's secrets only: what a production receiver checks never signs a sandbox webhook.
    // A webhook endpoint's deliveries are signed with that endpoint's secrets only, and go to its URL of now.
    let secrets: string[];
    let url = delivery.url;
    if (delivery.endpoint_id === null) secrets = await this.secretsOf(delivery.account_id, delivery.environment, now);
    else {
      const endpoint = await this.store.endpointSigning(delivery.endpoint_id, now);
      if (!endpoint || (!endpoint.enabled && !manual)) {
        await this.store.cancel(delivery.id, endpoint ? 'the webhook endpoint was disabled' : 'the webhook endpoint was deleted');
        webhookDeliveries.inc({ outcome: 'cancelled' });
        return;
      }
      secrets = endpoint.secrets.map((secret) => this.secretBox.open(secret));
      url = endpoint.url;
    }
    // Signed at the real time of sending: receivers check it against their clocks, whatever the sandbox's test clock says.
    const headers = signatureHeaders(delivery.id, this.clock.now(), delivery.payload, secrets);
    const attemptedAt = this.clock.now(tenant);
    const sent =
      secrets.length === 0
        ? {
            result: { kind: 'refused' as const, error: `no ${delivery.environment} webhook secret is known for this account yet` },
            latencyMs: 0,
            responseBody: null,
          }
        : await this.sender.send(url, delivery.environment, headers, delivery.payload);
    if (sent.result.kind === 'answered') this.breaker.answered(endpoint);
    if (sent.result.kind === 'down') this.breaker.wentDown(endpoint, this.clock.now().getTime());
    const change = afterAttempt(sent.result, manual, delivery.scheduled_attempts + (manual ? 0 : 1));
    await this.store.recordAttempt(
      {
        id: delivery.id,
        manual,
        attemptedAt,
        url,
        statusCode: sent.result.kind === 'answered' ? sent.result.statusCode : null,
        error: change.status === 'delivered' ? null : change.error,
        latencyMs: sent.latencyMs,
        responseBody: sent.responseBody,
        change,
      },
      this.clock.now(tenant),
    );
    webhookDeliveries.inc({ outcome: change.status });
    if (sent.result.kind === 'answered') webhookReceiverLatency.observe(sent.latencyMs / 1000);
  }

  /** Cached briefly: a rotation's previous secret keeps signing for 24 hours, so a few seconds' staleness is harmless. */
  private async secretsOf(accountId: string, environment: Environment, now: Date): Promise<string[]> {
    const key = `${accountId}:${environment}`;
    const cached = this.secrets.get(key);
    if (cached && cached.secrets.length > 0 && now.getTime() - cached.readAt < SECRET_CACHE_MS) return cached.secrets;
    const secrets = (await this.store.secretsOf(accountId, environment, now)).map((secret) => this.secretBox.open(secret));
    this.secrets.set(key, { secrets, readAt: now.getTime() });
    return secrets;
  }
}

const groupKey = (d: DeliveryToSend): string => `${d.account_id}:${d.environment}:${d.group_id}`;

/** A tenant's endpoint: two merchants on one host (a shared integration platform) never share slots or a circuit. */
function endpointOf(d: DeliveryToSend): string {
  let origin: string;
  try {
    origin = new URL(d.url).origin;
  } catch {
    origin = d.url;
  }
  return `${d.account_id}:${d.environment}:${origin}`;
}

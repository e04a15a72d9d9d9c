import { AuditActor, auditStatement } from '@pixauto/accounts';
import { SandboxClockResponse, Tenant, Topics, validateClockAdvance } from '@pixauto/contracts';
import { refuse } from '@pixauto/errors';
import { EventStore } from '@pixauto/event-store';
import { brasiliaDate, Clock } from '@pixauto/pix';
import { projectSandboxClock, SANDBOX_CLOCK_STREAM, sandboxClock, sandboxClockStreamId, TenantClocks } from '@pixauto/runtime';

/** Each sandbox tenant's test clock (docs/decisions/sandbox-clock.md). The gateway owns it; the services follow it on Kafka. */
export class SandboxClocks {
  constructor(
    private readonly eventStore: EventStore,
    private readonly clock: Clock,
    private readonly clocks: TenantClocks,
  ) {}

  async get(tenant: Tenant): Promise<SandboxClockResponse> {
    const state = await this.eventStore.load(sandboxClock, sandboxClockStreamId(tenant.accountId));
    return this.at(state.offsetMs);
  }

  /** The environment's today in Brasília: production's real one, a sandbox tenant's on its test clock. */
  async today(tenant: Tenant): Promise<string> {
    return tenant.environment === 'sandbox' ? (await this.get(tenant)).today : brasiliaDate(this.clock.now());
  }

  /** Moves the clock; its audit log entry is written in the same statement as the clock's event. */
  async advance(tenant: Tenant, body: unknown, actor: AuditActor): Promise<SandboxClockResponse> {
    const request = validateClockAdvance(body);
    if (!request.ok) return refuse(request.refusal);
    const now = this.clock.now();
    const outcome = await this.eventStore.handle(
      sandboxClock,
      { type: 'AdvanceClock', accountId: tenant.accountId, ms: request.value.ms },
      {
        streamId: sandboxClockStreamId(tenant.accountId),
        streamType: SANDBOX_CLOCK_STREAM,
        tenant,
        now,
        topic: Topics.sandboxClock.name,
        project: (events, state) => [
          ...projectSandboxClock(events, state),
          ...events.map(() =>
            auditStatement({
              accountId: tenant.accountId,
              environment: tenant.environment,
              at: now,
              actor,
              action: 'sandbox_clock.advanced',
              object: 'sandbox_clock',
              detail: { ms: request.value.ms },
            }),
          ),
        ],
      },
    );
    if (!outcome.ok) return refuse(outcome.refusal);
    // The next request relayed for this tenant already carries the new offset (Upstreams).
    this.clocks.observe(tenant.accountId, outcome.state.offsetMs);
    return this.at(outcome.state.offsetMs);
  }

  private at(offsetMs: number): SandboxClockResponse {
    const now = new Date(this.clock.now().getTime() + offsetMs);
    return { now: now.toISOString(), today: brasiliaDate(now) };
  }
}

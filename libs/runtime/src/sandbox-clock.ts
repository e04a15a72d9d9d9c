import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Kafka } from 'kafkajs';
import { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { EventEnvelope, SandboxClockAdvancedData, SandboxClockEventTypes, Topics } from '@pixauto/contracts';
import { accept, Decider, DomainEvent, Projection, sql } from '@pixauto/event-store';
import { EventSubscriber } from '@pixauto/messaging';
import { TenantRef } from '@pixauto/pix';

// The sandbox test clock (docs/decisions/sandbox-clock.md). The gateway owns each sandbox account's clock as an event stream;
// every service with date rules keeps the latest offset of every account in its own tenant_clocks table (read at
// start-up, so timers find it after a restart) and in memory (so Clock.now(tenant) stays synchronous).

export type SandboxClockEvent = DomainEvent<typeof SandboxClockEventTypes.advanced, SandboxClockAdvancedData>;
export interface SandboxClockState {
  offsetMs: number;
}
export type SandboxClockCommand = { type: 'AdvanceClock'; accountId: string; ms: number };

export const SANDBOX_CLOCK_STREAM = 'sandbox-clock';
export const sandboxClockStreamId = (accountId: string): string => `${SANDBOX_CLOCK_STREAM}:${accountId}`;

/** Only ever forward: a clock that went back would un-happen what already fell due. */
export const sandboxClock: Decider<SandboxClockCommand, SandboxClockEvent, SandboxClockState> = {
  initialState: { offsetMs: 0 },
  decide: (command, state) =>
    command.ms <= 0
      ? accept()
      : accept({
          type: SandboxClockEventTypes.advanced,
          data: { account_id: command.accountId, offset_ms: state.offsetMs + command.ms, advanced_ms: command.ms },
        }),
  evolve: (_state, event) => ({ offsetMs: event.data.offset_ms }),
};

const upsertOffset = (accountId: string, offsetMs: number, version: number) =>
  sql(
    `INSERT INTO tenant_clocks AS c (account_id, offset_ms, version) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE SET offset_ms = EXCLUDED.offset_ms, version = EXCLUDED.version WHERE c.version < EXCLUDED.version`,
    [accountId, offsetMs, version],
  );

/** The owner's read model: the same table every service keeps. */
export const projectSandboxClock: Projection<SandboxClockEvent, SandboxClockState> = (events) => {
  const last = events[events.length - 1];
  return last ? [upsertOffset(last.data.account_id, last.data.offset_ms, last.version)] : [];
};

export class TenantClocksTable1763800000060 implements MigrationInterface {
  name = 'TenantClocksTable1763800000060';

  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE TABLE tenant_clocks (account_id text PRIMARY KEY, offset_ms bigint NOT NULL, version integer NOT NULL)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE tenant_clocks');
  }
}

/**
 * "Now" of a row's tenant in SQL (name the columns with their table: the subquery must not read its own), for timers kept in a table (deadline columns): `nowParam` is the real now the
 * Clock read, shifted for a sandbox tenant by the offset this database holds for it. Production never shifts.
 */
export const tenantNowSql = (nowParam: string, accountColumn: string, environmentColumn: string): string =>
  `(${nowParam}::timestamptz + CASE WHEN ${environmentColumn} = 'sandbox'
     THEN COALESCE((SELECT tc.offset_ms FROM tenant_clocks tc WHERE tc.account_id = ${accountColumn}), 0) ELSE 0 END * interval '1 millisecond')`;

/** The offsets of every sandbox account, as this service knows them: its table, kept current from Kafka. */
export class TenantClocks {
  private readonly offsets = new Map<string, number>();
  private readonly logger = new Logger('TenantClocks');
  private subscriber?: EventSubscriber;

  constructor(private readonly dataSource: DataSource) {}

  /** Synchronous, for Clock.now(tenant); 0 for an account whose clock never moved. */
  offsetOf = (tenant: TenantRef): number => this.offsets.get(tenant.accountId) ?? 0;

  async load(db: EntityManager = this.dataSource.manager): Promise<void> {
    const rows: { account_id: string; offset_ms: string }[] = await db.query('SELECT account_id, offset_ms FROM tenant_clocks');
    for (const row of rows) this.observe(row.account_id, Number(row.offset_ms));
  }

  /** Idempotent and order-proof: a version already seen changes nothing, an offset never goes back. */
  async apply(event: EventEnvelope): Promise<void> {
    if (event.type !== SandboxClockEventTypes.advanced) return;
    const data = event.data as SandboxClockAdvancedData;
    const statement = upsertOffset(data.account_id, data.offset_ms, event.version);
    await this.dataSource.query(statement.text, statement.values);
    this.observe(data.account_id, data.offset_ms);
  }

  /**
   * Follows the clock topic. Every instance needs every offset, so each has a consumer group of its own, read from
   * the beginning (a small topic; applying an offset twice changes nothing).
   */
  async follow(kafka: Kafka, service: string): Promise<void> {
    const groupId = `${service}.sandbox-clock.${hostname()}.${process.pid}.${randomBytes(3).toString('hex')}`;
    this.subscriber = new EventSubscriber(kafka, { groupId, topics: [Topics.sandboxClock.name], handle: (event) => this.apply(event) });
    await this.subscriber.start();
    this.logger.log(`following ${Topics.sandboxClock.name}`);
  }

  async stop(): Promise<void> {
    await this.subscriber?.stop();
  }

  /** An offset learnt elsewhere (the gateway's request): kept in memory if it is ahead; clocks never go back. */
  observe(accountId: string, offsetMs: number): void {
    if (offsetMs > (this.offsets.get(accountId) ?? 0)) this.offsets.set(accountId, offsetMs);
  }
}

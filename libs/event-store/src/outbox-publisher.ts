import { DataSource, QueryRunner } from 'typeorm';
import { outboxPublishLag } from '@pixauto/metrics';

export interface OutboxMessage {
  id: string;
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** Where the outbox goes (Kafka in the services; messaging provides the sink). Resolves only once the broker acknowledged. */
export interface OutboxSink {
  send(messages: OutboxMessage[]): Promise<void>;
}

export interface OutboxPublisherOptions {
  /** Advisory-lock key: one publisher per database at a time keeps per-key order across instances. */
  lockKey: number;
  batchSize?: number;
  idleMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Moves committed outbox rows to the sink, oldest first, and deletes them only after the sink acknowledged:
 * at-least-once (a crash between send and delete re-sends; consumers deduplicate by event id).
 */
export class OutboxPublisher {
  private running = false;
  /** Set by stop: until then (performance.now()), what is committed is still published before the loop ends. */
  private flushUntil = 0;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private runner?: QueryRunner;
  /** The runner's connect succeeded (TypeORM keeps a failed one). */
  private connected = false;
  private locked = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sink: OutboxSink,
    private readonly options: OutboxPublisherOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Called after a commit so new events leave at once instead of at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * Stops after publishing what is committed by now (a shutdown: the requests drained first), for at most `flushMs`;
   * what is left, and everything when another instance holds the lock, is published by the instance that runs next.
   */
  async stop(flushMs = 0): Promise<void> {
    this.flushUntil = performance.now() + flushMs;
    this.running = false;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    // Appends wake the publisher at once; the idle poll only finds rows left by a crash or by another instance.
    const { idleMs = 1000, onError = () => undefined } = this.options;
    try {
      while (this.running) {
        try {
          const runner = await this.connectedRunner();
          if (!(await this.holdsLock(runner))) {
            await this.sleep(1000);
            continue;
          }
          const sent = await this.publishBatch(runner);
          if (sent === 0) await this.sleep(idleMs);
        } catch (error) {
          onError(error);
          await this.sleep(1000);
        }
      }
      if (this.locked && this.runner) await this.flush(this.runner).catch(onError);
    } finally {
      // Another instance takes over once the lock is free. Releasing the connection only returns it to the pool, with
      // its session (and a session lock) still alive, so the lock is released explicitly.
      if (this.locked) await this.runner?.query('SELECT pg_advisory_unlock($1)', [this.options.lockKey]).catch(onError);
      this.locked = false;
      await this.runner?.release();
    }
  }

  /**
   * The publisher's own connection, a new one when it has none that works. A connection PostgreSQL dropped (a restart,
   * a terminated backend) is released by TypeORM, and its session lock went with it. A runner whose connect failed
   * (the server down or still starting) is not released, and TypeORM keeps that failed connect and answers every later
   * query with it: it is dropped too, or the publisher would never publish again after a database restart.
   */
  private async connectedRunner(): Promise<QueryRunner> {
    if (this.runner && this.connected && !this.runner.isReleased) return this.runner;
    if (this.runner && !this.runner.isReleased) await this.runner.release().catch(() => undefined);
    this.locked = false;
    this.connected = false;
    this.runner = this.dataSource.createQueryRunner();
    await this.runner.connect();
    this.connected = true;
    return this.runner;
  }

  private async flush(runner: QueryRunner): Promise<void> {
    let sent = 1;
    while (sent > 0 && performance.now() < this.flushUntil) sent = await this.publishBatch(runner);
  }

  private async holdsLock(runner: QueryRunner): Promise<boolean> {
    if (!this.locked) {
      const [row] = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [this.options.lockKey]);
      this.locked = row.locked === true;
    }
    return this.locked;
  }

  private async publishBatch(runner: QueryRunner): Promise<number> {
    // The payload leaves as the text it was stored as: no parse and re-serialise on the way to Kafka.
    // `waited`: seconds since the row was written, by the clock of the database that wrote created_at.
    const rows: { id: string; topic: string; message_key: string; payload: string; headers: Record<string, string>; waited: number }[] = await runner.query(
      'SELECT id, topic, message_key, payload::text AS payload, headers, extract(epoch FROM clock_timestamp() - created_at)::float8 AS waited FROM outbox ORDER BY id LIMIT $1',
      [this.options.batchSize ?? 500],
    );
    if (rows.length === 0) return 0;
    const sending = performance.now();
    await this.sink.send(rows.map((row) => ({ id: row.id, topic: row.topic, key: row.message_key, value: row.payload, headers: row.headers })));
    const sent = (performance.now() - sending) / 1000;
    for (const row of rows) outboxPublishLag.observe(row.waited + sent);
    await runner.query('DELETE FROM outbox WHERE id = ANY($1::bigint[])', [rows.map((row) => row.id)]);
    return rows.length;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { EventEnvelope, WrittenPosition } from '@pixauto/contracts';

// A merchant reads its own writes, even where a follower of Kafka answers the read (docs/decisions/read-your-writes.md):
// a write tells the gateway which events it appended; a read that carries them waits until this service's followers
// have applied those they follow.

const writes = new AsyncLocalStorage<WrittenPosition[]>();

/** Runs `work` (and everything it starts) noting each event appended into `written`: one RPC request's writes. */
export const collectingWrites = <T>(written: WrittenPosition[], work: () => T): T => writes.run(written, work);

/** Called by the event store after a commit; outside a request (a follower, a scheduler) nobody collects. */
export const noteWritten = (events: WrittenPosition[]): void => {
  writes.getStore()?.push(...events);
};

/** The last event of each stream, topic and type: what a reader must wait for, without repeats. */
export function latestWrites(written: readonly WrittenPosition[]): WrittenPosition[] {
  const latest = new Map<string, WrittenPosition>();
  for (const position of written) {
    const key = JSON.stringify([position.topic, position.type, position.stream]);
    const known = latest.get(key);
    if (!known || known.version < position.version) latest.set(key, position);
  }
  return [...latest.values()];
}

/** A stream's event a follower (by its consumer group) must have applied, from a topic. */
export interface FollowedPosition {
  group: string;
  topic: string;
  stream: string;
  version: number;
}

/** How often a waiting read looks again at first, and at most. */
const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 100;

/**
 * The version of each stream every follower of this service has applied, per topic (a recurrence's stream has two):
 * recorded after the follower's handler committed, read by the reads that must see a merchant's own writes. A
 * stream's events reach a follower in order, so a version reached means every earlier event of the stream on that
 * topic was applied too.
 */
export class FollowerPositions {
  constructor(private readonly dataSource: DataSource) {}

  async record(group: string, topic: string, events: readonly EventEnvelope[]): Promise<void> {
    const latest = new Map<string, number>();
    for (const event of events) latest.set(event.stream_id, Math.max(event.version, latest.get(event.stream_id) ?? 0));
    if (latest.size === 0) return;
    await this.dataSource.query(
      `INSERT INTO follower_positions AS p (consumer_group, topic, stream_id, version)
       SELECT $1, $2, s.stream_id, s.version FROM unnest($3::text[], $4::int[]) AS s (stream_id, version)
       ON CONFLICT (consumer_group, topic, stream_id) DO UPDATE SET version = EXCLUDED.version WHERE p.version < EXCLUDED.version`,
      [group, topic, [...latest.keys()], [...latest.values()]],
    );
  }

  /** Whether every position is applied now, or within `boundMs` (looked at again with growing pauses). */
  async awaitApplied(wanted: readonly FollowedPosition[], boundMs: number): Promise<boolean> {
    const distinct = latestFollowed(wanted);
    const started = performance.now();
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      if (await this.applied(distinct)) return true;
      const left = boundMs - (performance.now() - started);
      if (left <= 0) return false;
      await sleep(Math.min(pause, left));
    }
  }

  private async applied(wanted: readonly FollowedPosition[]): Promise<boolean> {
    if (wanted.length === 0) return true;
    const [{ reached }] = await this.dataSource.query(
      `SELECT count(*)::int AS reached FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS w (consumer_group, topic, stream_id, version)
       JOIN follower_positions AS p USING (consumer_group, topic, stream_id) WHERE p.version >= w.version`,
      [wanted.map((w) => w.group), wanted.map((w) => w.topic), wanted.map((w) => w.stream), wanted.map((w) => w.version)],
    );
    return reached === wanted.length;
  }
}

/** One position per follower, topic and stream: the highest version wanted. */
function latestFollowed(wanted: readonly FollowedPosition[]): FollowedPosition[] {
  const latest = new Map<string, FollowedPosition>();
  for (const position of wanted) {
    const key = JSON.stringify([position.group, position.topic, position.stream]);
    const known = latest.get(key);
    if (!known || known.version < position.version) latest.set(key, position);
  }
  return [...latest.values()];
}

/** Every service's database: where its followers have got to (FollowerPositions). */
export class FollowerPositions1763800000900 implements MigrationInterface {
  name = 'FollowerPositions1763800000900';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE follower_positions (
        consumer_group text NOT NULL,
        topic          text NOT NULL,
        stream_id      text NOT NULL,
        version        integer NOT NULL,
        PRIMARY KEY (consumer_group, topic, stream_id)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE follower_positions');
  }
}

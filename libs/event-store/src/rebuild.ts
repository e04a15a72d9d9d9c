import { DataSource, EntityManager } from 'typeorm';
import { DomainEvent } from './decider';
import { EventRow, fromRow, StoredEvent } from './stored-event';

export interface ProjectionRebuild<E extends DomainEvent> {
  streamType: string;
  /** Empties the read model. */
  reset(tx: EntityManager): Promise<void>;
  /** Applies one event, in global order. */
  apply(tx: EntityManager, event: StoredEvent<E>): Promise<void>;
}

/** Rebuilds a read model from the events alone, in one transaction: readers see the old model until it commits. */
export async function rebuildProjection<E extends DomainEvent>(dataSource: DataSource, rebuild: ProjectionRebuild<E>, batchSize = 1000): Promise<number> {
  return dataSource.transaction(async (tx) => {
    await rebuild.reset(tx);
    let applied = 0;
    for (let after = '0'; ; ) {
      const rows: EventRow[] = await tx.query(
        `SELECT position, event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at
           FROM events WHERE stream_type = $1 AND position > $2 ORDER BY position LIMIT $3`,
        [rebuild.streamType, after, batchSize],
      );
      for (const row of rows) await rebuild.apply(tx, fromRow<E>(row));
      applied += rows.length;
      if (rows.length < batchSize) return applied;
      after = rows[rows.length - 1].position;
    }
  });
}

import { DataSource, EntityManager } from 'typeorm';
import { Decider, DomainEvent } from './decider';
import { Projection } from './event-store';
import { EVENT_COLUMNS, EventRow, fromRow } from './stored-event';

export interface ProjectionRebuild<E extends DomainEvent, S> {
  streamType: string;
  /** Empties the read model. */
  reset(tx: EntityManager): Promise<void>;
  /** The aggregate's fold, to give the projection the state each event led to. */
  decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>;
  /** The same projection the live appends use. */
  project: Projection<E, S>;
}

/**
 * Rebuilds a read model from the events alone, stream by stream, replaying each event through the live projection,
 * in one transaction: readers see the old model until it commits. Returns how many events were applied.
 */
export async function rebuildProjection<E extends DomainEvent, S>(dataSource: DataSource, rebuild: ProjectionRebuild<E, S>, batchSize = 1000): Promise<number> {
  return dataSource.transaction(async (tx) => {
    await rebuild.reset(tx);
    let applied = 0;
    let state = rebuild.decider.initialState;
    let streamId: string | undefined;
    for (let after = { stream: '', version: 0 }; ;) {
      const rows: EventRow[] = await tx.query(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_type = $1 AND (stream_id, version) > ($2, $3) ORDER BY stream_id, version LIMIT $4`,
        [rebuild.streamType, after.stream, after.version, batchSize],
      );
      for (const row of rows) {
        const event = fromRow<E>(row);
        if (event.streamId !== streamId) [streamId, state] = [event.streamId, rebuild.decider.initialState];
        state = rebuild.decider.evolve(state, { type: event.type, data: event.data } as E);
        for (const statement of rebuild.project([event], state)) await tx.query(statement.text, statement.values);
      }
      applied += rows.length;
      if (rows.length < batchSize) return applied;
      const last = rows[rows.length - 1];
      after = { stream: last.stream_id, version: last.version };
    }
  });
}

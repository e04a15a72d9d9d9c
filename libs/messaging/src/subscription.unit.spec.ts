import { Subscription } from './subscriber';

// A follower handles each event or each fetched batch: the type admits one handler, never both (checked by tsc).

const handleEach = async (): Promise<void> => undefined;

describe('Subscription', () => {
  it('takes a handler of each event, or of each batch', () => {
    const eventByEvent: Subscription = { groupId: 'g', topics: ['t'], handle: handleEach };
    const batchByBatch: Subscription = { groupId: 'g', topics: ['t'], handleBatch: handleEach };
    expect([eventByEvent, batchByBatch].map((s) => typeof (s.handle ?? s.handleBatch))).toEqual(['function', 'function']);
  });

  it('refuses both, and neither', () => {
    // @ts-expect-error -- a batch handler beside an event handler would never be called
    const both: Subscription = { groupId: 'g', topics: ['t'], handle: handleEach, handleBatch: handleEach };
    // @ts-expect-error -- a follower with no handler
    const neither: Subscription = { groupId: 'g', topics: ['t'] };
    expect([both, neither]).toHaveLength(2);
  });
});

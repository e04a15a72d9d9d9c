import { consumerLag, recordConsumerLag } from './metrics';

describe('recordConsumerLag', () => {
  it("keeps each partition's latest lag and reports their sum per group and topic", async () => {
    recordConsumerLag('group-a', 'topic-1', 0, 5);
    recordConsumerLag('group-a', 'topic-1', 1, 7);
    recordConsumerLag('group-a', 'topic-1', 0, 2);
    recordConsumerLag('group-b', 'topic-1', 0, 4);

    const values = (await consumerLag.get()).values.map(({ labels, value }) => ({ ...labels, value }));
    expect(values).toEqual([
      { group: 'group-a', topic: 'topic-1', value: 9 },
      { group: 'group-b', topic: 'topic-1', value: 4 },
    ]);
  });
});

import { Batcher, settled, Settled } from './batcher';

const ok = <T>(value: T): Settled<T> => ({ ok: true, value });

describe('Batcher', () => {
  it('runs the calls of one event-loop turn as one batch, the calls made meanwhile as the next, each with its own outcome', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const firstHeld = new Promise<void>((resolve) => (release = resolve));
    const batcher = new Batcher<number, string>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await firstHeld;
      return items.map((n) => (n % 2 === 0 ? ok(`even ${n}`) : { ok: false, error: new Error(`odd ${n}`) }));
    }, 100);

    const first = [1, 2, 3].map((n) => settled(batcher.add(n)));
    await new Promise((resolve) => setImmediate(resolve));
    const second = [4, 5].map((n) => settled(batcher.add(n)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1, 2, 3]]); // 4 and 5 wait while the first batch runs
    release();

    const outcomes = await Promise.all([...first, ...second]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(outcomes.map((o) => (o.ok ? o.value : (o.error as Error).message))).toEqual(['odd 1', 'even 2', 'odd 3', 'even 4', 'odd 5']);
  });

  it('takes at most `max` calls per batch', async () => {
    const sizes: number[] = [];
    const batcher = new Batcher<number, number>(async (items) => {
      sizes.push(items.length);
      return items.map(ok);
    }, 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.add(n)))).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('fails every call of a batch that failed as a whole, and goes on with the next', async () => {
    let runs = 0;
    const batcher = new Batcher<number, number>(async (items) => {
      if (runs++ === 0) throw new Error('database down');
      return items.map(ok);
    }, 10);
    const failed = await Promise.all([1, 2].map((n) => settled(batcher.add(n))));
    expect(failed.map((o) => o.ok || (o.error as Error).message)).toEqual(['database down', 'database down']);
    expect(await batcher.add(3)).toBe(3);
  });
});

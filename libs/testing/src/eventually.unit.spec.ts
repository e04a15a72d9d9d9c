import { eventually, shown, until } from './eventually';

describe('eventually', () => {
  it('resolves to the first value that satisfies the condition, as soon as it does', async () => {
    let reads = 0;
    const started = performance.now();
    const value = await eventually(
      () => ++reads,
      (n) => n === 3,
      { intervalMs: 20, timeoutMs: 5000 },
    );
    expect(value).toBe(3);
    expect(reads).toBe(3);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('reads once and does not wait when the condition already holds', async () => {
    const read = jest.fn(async () => 'ready');
    const started = performance.now();
    await expect(eventually(read, (s) => s === 'ready', { intervalMs: 1000 })).resolves.toBe('ready');
    expect(read).toHaveBeenCalledTimes(1);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('throws past its timeout, naming what it waited for and the last value read (never returns quietly)', async () => {
    let reads = 0;
    const started = performance.now();
    const waited = eventually(
      () => ({ status: 'PENDING', reads: ++reads }),
      (answer) => answer.status === 'PAID',
      { timeoutMs: 200, intervalMs: 20, what: 'the charge paid' },
    );
    const error = await waited.catch((thrown: unknown) => thrown);
    expect(error).toEqual(new Error(`the charge paid: not within 200 ms; last read: {"status":"PENDING","reads":${reads}}`));
    expect(reads).toBeGreaterThan(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(199);
  });

  it('fails with the error of a read that throws', async () => {
    await expect(
      eventually(
        () => Promise.reject(new Error('connection refused')),
        () => true,
      ),
    ).rejects.toThrow('connection refused');
  });
});

describe('until', () => {
  it('resolves once the condition holds, to the milliseconds that took', async () => {
    const ready = performance.now() + 100;
    const took = await until(async () => performance.now() >= ready, { intervalMs: 10 });
    expect(took).toBeGreaterThanOrEqual(95);
    expect(took).toBeLessThan(1000);
  });

  it('throws past its timeout, naming what it waited for', async () => {
    await expect(until(() => false, { timeoutMs: 100, intervalMs: 10, what: 'the port closed' })).rejects.toThrow(
      new Error('the port closed: not within 100 ms'),
    );
    await expect(until(() => false, { timeoutMs: 50 })).rejects.toThrow('the condition: not within 50 ms');
  });
});

describe('shown', () => {
  it('shows JSON, cut past 1000 characters, and what JSON cannot show', () => {
    expect(shown({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(shown('x'.repeat(2000))).toBe(`"${'x'.repeat(999)}… (2002 characters)`);
    expect(shown(undefined)).toBe('undefined');
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    expect(shown(cycle)).toBe('<ref *1> { self: [Circular *1] }');
    expect(shown(10n)).toBe('10n');
  });
});

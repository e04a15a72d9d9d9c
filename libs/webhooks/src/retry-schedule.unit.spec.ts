import { MAX_ATTEMPTS, retryDelayMs, RETRY_DELAYS_MS } from './retry-schedule';

describe('retry schedule', () => {
  it('spans about three days over ten attempts', () => {
    expect(MAX_ATTEMPTS).toBe(10);
    const totalHours = RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0) / 3_600_000;
    expect(totalHours).toBeGreaterThan(72);
    expect(totalHours).toBeLessThan(80);
  });

  it('waits 5 s after the first failure, within ±10% jitter, and gives up after the last attempt', () => {
    expect(retryDelayMs(1, () => 0)).toBe(4500);
    expect(retryDelayMs(1, () => 0.5)).toBe(5000);
    expect(retryDelayMs(1, () => 1)).toBe(5500);
    expect(retryDelayMs(2, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(9, () => 0.5)).toBe(86_400_000);
    expect(retryDelayMs(10, () => 0.5)).toBeNull();
  });
});

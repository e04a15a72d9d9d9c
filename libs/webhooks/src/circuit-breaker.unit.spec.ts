import { CircuitBreaker } from './circuit-breaker';

describe('CircuitBreaker', () => {
  const options = { failureThreshold: 3, cooldownMs: 1000, maxCooldownMs: 3000 };

  it('admits until the threshold of consecutive down failures, then defers until the cooldown ends', () => {
    const breaker = new CircuitBreaker(options);
    breaker.wentDown('https://a', 0);
    breaker.wentDown('https://a', 0);
    expect(breaker.admit('https://a', 0)).toEqual({ admitted: true });
    breaker.wentDown('https://a', 100);
    expect(breaker.admit('https://a', 500)).toEqual({ admitted: false, retryAtMs: 1100 });
    expect(breaker.admit('https://b', 500)).toEqual({ admitted: true });
  });

  it('lets one trial through when the cooldown ends; its failure doubles the cooldown, up to the maximum', () => {
    const breaker = new CircuitBreaker(options);
    for (let i = 0; i < 3; i++) breaker.wentDown('e', 0);
    expect(breaker.admit('e', 1000)).toEqual({ admitted: true });
    expect(breaker.admit('e', 1000)).toEqual({ admitted: false, retryAtMs: 2000 });
    breaker.wentDown('e', 1000);
    expect(breaker.admit('e', 2999)).toEqual({ admitted: false, retryAtMs: 3000 });
    expect(breaker.admit('e', 3000)).toEqual({ admitted: true });
    breaker.wentDown('e', 3000);
    expect(breaker.admit('e', 3000)).toEqual({ admitted: false, retryAtMs: 6000 });
    expect(breaker.admit('e', 6000)).toEqual({ admitted: true });
    breaker.wentDown('e', 6000);
    expect(breaker.admit('e', 6000)).toEqual({ admitted: false, retryAtMs: 9000 });
  });

  it('closes on any answer, and an answer resets the count of failures', () => {
    const breaker = new CircuitBreaker(options);
    for (let i = 0; i < 3; i++) breaker.wentDown('e', 0);
    expect(breaker.admit('e', 1000)).toEqual({ admitted: true });
    breaker.answered('e');
    expect(breaker.isOpen('e', 1000)).toBe(false);
    breaker.wentDown('e', 1000);
    breaker.wentDown('e', 1000);
    expect(breaker.admit('e', 1000)).toEqual({ admitted: true });
  });
});

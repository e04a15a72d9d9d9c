import { rateLimitHeaders, verdictOf } from './rate-limit';

describe('rate limit verdicts', () => {
  it('counts what is left in the window and when it has room again, in whole seconds', () => {
    expect(verdictOf(100, [1, 40, 250])).toEqual({ allowed: true, limit: 100, remaining: 60, resetSeconds: 1 });
    expect(verdictOf(100, [0, 100, 999])).toEqual({ allowed: false, limit: 100, remaining: 0, resetSeconds: 1 });
    // A count above the limit (the previous second's weight) never gives a negative remainder.
    expect(verdictOf(10, [0, 14, 0])).toEqual({ allowed: false, limit: 10, remaining: 0, resetSeconds: 1 });
  });

  it('says it in the IETF draft headers, with the policy of a one-second window', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 100, remaining: 60, resetSeconds: 1 })).toEqual({
      'ratelimit-limit': '100',
      'ratelimit-remaining': '60',
      'ratelimit-reset': '1',
      'ratelimit-policy': '100;w=1',
    });
  });
});

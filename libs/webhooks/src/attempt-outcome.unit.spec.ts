import { afterAttempt, errorOf } from './attempt-outcome';
import { MAX_ATTEMPTS } from './retry-schedule';

const half = () => 0.5;

describe('afterAttempt', () => {
  it('delivers on any 2xx', () => {
    for (const statusCode of [200, 201, 202, 204, 299]) expect(afterAttempt({ kind: 'answered', statusCode }, false, 1, half)).toEqual({ status: 'delivered' });
  });

  it('retries 3xx, 4xx, 5xx and no answer on the schedule, 5 s after the first failure', () => {
    expect(afterAttempt({ kind: 'answered', statusCode: 302 }, false, 1, half)).toEqual({
      status: 'retry',
      error: 'HTTP 302 (redirects are not followed)',
      delayMs: 5000,
    });
    expect(afterAttempt({ kind: 'answered', statusCode: 400 }, false, 1, half)).toEqual({ status: 'retry', error: 'HTTP 400', delayMs: 5000 });
    expect(afterAttempt({ kind: 'answered', statusCode: 503 }, false, 2, half)).toEqual({ status: 'retry', error: 'HTTP 503', delayMs: 300_000 });
    expect(afterAttempt({ kind: 'down', error: 'timed out after 15000 ms' }, false, 1, half)).toEqual({
      status: 'retry',
      error: 'timed out after 15000 ms',
      delayMs: 5000,
    });
    expect(afterAttempt({ kind: 'refused', error: 'private address' }, false, 1, half)).toEqual({ status: 'retry', error: 'private address', delayMs: 5000 });
  });

  it('fails the delivery after the last attempt of the schedule', () => {
    expect(afterAttempt({ kind: 'answered', statusCode: 500 }, false, MAX_ATTEMPTS, half)).toEqual({ status: 'failed', error: 'HTTP 500' });
  });

  it('stops on 410 Gone, whatever attempt it was', () => {
    expect(afterAttempt({ kind: 'answered', statusCode: 410 }, false, 1, half).status).toBe('gone');
    expect(afterAttempt({ kind: 'answered', statusCode: 410 }, true, 0, half).status).toBe('gone');
  });

  it('leaves the schedule alone when a manual attempt fails', () => {
    expect(afterAttempt({ kind: 'answered', statusCode: 500 }, true, 3, half)).toEqual({ status: 'unchanged', error: 'HTTP 500' });
    expect(afterAttempt({ kind: 'answered', statusCode: 200 }, true, 3, half)).toEqual({ status: 'delivered' });
  });
});

describe('errorOf', () => {
  it('is null only for 2xx', () => {
    expect(errorOf({ kind: 'answered', statusCode: 204 })).toBeNull();
    expect(errorOf({ kind: 'answered', statusCode: 199 })).toBe('HTTP 199');
    expect(errorOf({ kind: 'down', error: 'ECONNREFUSED' })).toBe('ECONNREFUSED');
  });
});

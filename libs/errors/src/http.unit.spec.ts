import { Messages, notFound, providerError, rateLimited, toHttp, unavailable, validation, limitExceeded, receiptError } from './index';

describe('toHttp', () => {
  it('joins several validation problems with a period, as one ValidationError', () => {
    expect(toHttp(validation('body.amount must be a positive number', 'body.type must be one of cashin or cashout'))).toEqual({
      status: 400,
      body: {
        type: 'ValidationError',
        message: 'body.amount must be a positive number. body.type must be one of cashin or cashout',
      },
    });
  });

  it('answers not found with the message only', () => {
    expect(toHttp(notFound(Messages.limits.notFound))).toEqual({ status: 404, body: { message: 'No limit found for this customer' } });
  });

  it('keeps the settlement system status and its violations on a ProviderError', () => {
    const http = toHttp(providerError(422, 'retry refused', [{ property: 'dataTentativa', reason: 'fora da janela' }], 'E1'));
    expect(http).toEqual({
      status: 422,
      body: { type: 'ProviderError', message: 'retry refused', provider_code: 'E1', violations: [{ property: 'dataTentativa', reason: 'fora da janela' }] },
    });
  });

  it('omits optional keys that are absent', () => {
    expect(toHttp(providerError(400, 'no')).body).toEqual({ type: 'ProviderError', message: 'no' });
    expect(toHttp(receiptError(409, 'later')).body).toEqual({ message: 'later' });
  });

  it('tells when to come back on overload (503) and on a rate limit (429)', () => {
    expect(toHttp(unavailable('busy'))).toEqual({ status: 503, body: { message: 'busy' }, headers: { 'retry-after': '1' } });
    expect(toHttp(rateLimited('slow down', 2))).toEqual({ status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '2' } });
  });

  it('shapes a limit refusal as LimitExceededError', () => {
    expect(toHttp(limitExceeded('x'))).toEqual({ status: 400, body: { type: 'LimitExceededError', message: 'x' } });
  });
});

describe('Messages', () => {
  it('lists unknown fields inside one pair of backticks', () => {
    expect(Messages.unknownFields(['foo', 'bar'])).toBe('`foo, bar` is not a field of this endpoint');
  });
});

import { newListenSecret, splitEvents } from './listen';

describe('splitEvents', () => {
  it('gives the data of each complete event, leaves comments out and keeps a partial one for the next chunk', () => {
    expect(splitEvents(': listening\n\ndata: {"id":"a"}\n\ndata: {"id"')).toEqual({ events: ['{"id":"a"}'], rest: 'data: {"id"' });
    expect(splitEvents('data: {"id"' + ':"b"}\n\n: keep-alive\n\n')).toEqual({ events: ['{"id":"b"}'], rest: '' });
  });

  it('joins the data lines of one event', () => {
    expect(splitEvents('event: x\ndata: one\ndata:two\n\n')).toEqual({ events: ['one\ntwo'], rest: '' });
  });
});

describe('newListenSecret', () => {
  it('is a Standard Webhooks secret of 32 random bytes, a new one each time', () => {
    const secret = newListenSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newListenSecret()).not.toBe(secret);
  });
});

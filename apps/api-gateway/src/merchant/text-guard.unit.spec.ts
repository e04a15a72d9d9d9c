import { unstorableTextAt } from './text-guard';

describe('text no service can store', () => {
  it('names where a NUL or an unpaired surrogate is, keys included; well-formed text (emoji too) passes', () => {
    expect(unstorableTextAt({ transaction_id: 'pedido-1', payer: { name: 'José 😀 ação' }, list: ['a', 1, null] }, 'body')).toBeUndefined();
    expect(unstorableTextAt({ transaction_id: '\u0000' }, 'body')).toBe('body.transaction_id');
    expect(unstorableTextAt({ payer: { name: 'a\ud800b' } }, 'body')).toBe('body.payer.name');
    expect(unstorableTextAt({ details: ['ok', '\udc00'] }, 'body')).toBe('body.details[1]');
    expect(unstorableTextAt({ ['k\u0000']: 1 }, 'body')).toBe('body');
    expect(unstorableTextAt({ id: '%00'.replace('%00', '\u0000') }, 'params')).toBe('params.id');
    expect(unstorableTextAt(undefined, 'query')).toBeUndefined();
  });
});

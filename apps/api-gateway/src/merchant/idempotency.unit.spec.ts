import { canonicalJson, fingerprintOf, idempotencyKeyOf, repeatOutcome } from './idempotency';

describe('Idempotency-Key', () => {
  it('takes 1 to 255 printable ASCII characters, and no header means no key', () => {
    expect(idempotencyKeyOf(undefined)).toEqual({ key: undefined });
    expect(idempotencyKeyOf('pedido-1234 tentativa 2')).toEqual({ key: 'pedido-1234 tentativa 2' });
    const refused = { refusal: { kind: 'validation', problems: ['header Idempotency-Key must be 1 to 255 printable ASCII characters'] } };
    for (const bad of ['', 'x'.repeat(256), 'ação', 'a\tb', ['a', 'b']]) expect(idempotencyKeyOf(bad)).toEqual(refused);
  });

  it('is the same request whatever the order of the body keys, and another one for another route, query or value', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    const same = fingerprintOf('POST', '/v2/pix', { amount: 10, transaction_id: 't' });
    expect(fingerprintOf('POST', '/v2/pix', { transaction_id: 't', amount: 10 })).toBe(same);
    expect(fingerprintOf('POST', '/v2/pix', { transaction_id: 't', amount: 10.01 })).not.toBe(same);
    expect(fingerprintOf('POST', '/v2/payout/pix', { amount: 10, transaction_id: 't' })).not.toBe(same);
    expect(fingerprintOf('POST', '/v2/pix?x=1', { amount: 10, transaction_id: 't' })).not.toBe(same);
  });

  it('replays a finished request, holds a running one, and refuses the key for another request', () => {
    const done = { fingerprint: 'f', state: 'done', status: 201, body: '{}', contentType: 'application/json' } as const;
    expect(repeatOutcome(done, 'f')).toBe('replay');
    expect(repeatOutcome({ fingerprint: 'f', state: 'running' }, 'f')).toBe('running');
    expect(repeatOutcome(done, 'g')).toBe('conflict');
    expect(repeatOutcome({ fingerprint: 'f', state: 'running' }, 'g')).toBe('conflict');
  });
});

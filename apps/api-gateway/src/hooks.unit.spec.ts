import { gatewayConfig } from './gateway.config';
import { BENCH_DATABASE_PREFIX, GATEWAY_HOOKS, hooksOffOf } from './hooks';

// GATEWAY_HOOKS_OFF: the bench's switch to price each of the gateway's per-request hooks, read once at start.

const bench = { DATABASE_PREFIX: BENCH_DATABASE_PREFIX };

describe('GATEWAY_HOOKS_OFF', () => {
  it('unset or empty: every hook on', () => {
    expect(hooksOffOf({})).toEqual(new Set());
    expect(hooksOffOf({ ...bench, GATEWAY_HOOKS_OFF: ' ' })).toEqual(new Set());
    expect(gatewayConfig({}).hooksOff.size).toBe(0);
  });

  it('on the bench profile, the hooks it names are off (spaces and empty items ignored)', () => {
    expect(hooksOffOf({ ...bench, GATEWAY_HOOKS_OFF: 'rate-limit, idempotency,,logging' })).toEqual(new Set(['rate-limit', 'idempotency', 'logging']));
    expect(hooksOffOf({ ...bench, GATEWAY_HOOKS_OFF: GATEWAY_HOOKS.join(',') })).toEqual(new Set(GATEWAY_HOOKS));
  });

  it('a name the gateway has no hook by is refused at start, naming it and the hooks', () => {
    expect(() => hooksOffOf({ ...bench, GATEWAY_HOOKS_OFF: 'rate-limit,ratelimit' })).toThrow(
      `GATEWAY_HOOKS_OFF names no hook of the gateway: ratelimit (its hooks: ${GATEWAY_HOOKS.join(', ')})`,
    );
    expect(() => gatewayConfig({ ...bench, GATEWAY_HOOKS_OFF: 'all' })).toThrow('names no hook of the gateway: all');
  });

  it('is refused outside the bench profile, and under NODE_ENV=production even there', () => {
    expect(() => hooksOffOf({ GATEWAY_HOOKS_OFF: 'rate-limit' })).toThrow('GATEWAY_HOOKS_OFF is for the bench only');
    expect(() => hooksOffOf({ DATABASE_PREFIX: 'pixauto', GATEWAY_HOOKS_OFF: 'logging' })).toThrow('GATEWAY_HOOKS_OFF is for the bench only');
    expect(() => hooksOffOf({ ...bench, NODE_ENV: 'production', GATEWAY_HOOKS_OFF: 'logging' })).toThrow('GATEWAY_HOOKS_OFF is for the bench only');
    expect(() => gatewayConfig({ DATABASE_PREFIX: 'pixauto_e2e', GATEWAY_HOOKS_OFF: 'logging' })).toThrow('GATEWAY_HOOKS_OFF is for the bench only');
  });
});

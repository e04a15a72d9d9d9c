import type { ApiKeySummaryResponse } from '@pixauto/contracts';
import { markOwn, revocationRefusal } from './api-keys';

const key = (key_id: string, environment: 'production' | 'sandbox'): ApiKeySummaryResponse => ({
  key_id,
  environment,
  read_only: false,
  transactions: true,
  name: null,
  last_used_at: null,
  created_at: '2026-11-20T10:00:00.000Z',
  revoked_at: null,
});
const keys = markOwn([key('key_live', 'production'), key('key_test', 'sandbox'), key('key_console', 'sandbox')], new Set(['key_console', 'key_elsewhere']));

describe("the account's keys, as the console lists them", () => {
  it("marks the console's own keys, and only them", () => {
    expect(keys.map(({ key_id, console }) => [key_id, console])).toEqual([
      ['key_live', false],
      ['key_test', false],
      ['key_console', true],
    ]);
  });
});

describe('who may revoke a key', () => {
  it('lets an owner revoke any key of the account but the console’s', () => {
    expect(revocationRefusal(keys, 'key_live', 'owner')).toBeUndefined();
    expect(revocationRefusal(keys, 'key_test', 'owner')).toBeUndefined();
    expect(revocationRefusal(keys, 'key_console', 'owner')).toEqual({ kind: 'forbidden', message: expect.stringContaining("the console's own") });
  });

  it('lets a developer revoke sandbox keys only, and a viewer none', () => {
    expect(revocationRefusal(keys, 'key_test', 'developer')).toBeUndefined();
    expect(revocationRefusal(keys, 'key_live', 'developer')).toEqual({ kind: 'forbidden', message: 'A developer may not make changes in production' });
    expect(revocationRefusal(keys, 'key_test', 'viewer')).toEqual({ kind: 'forbidden', message: 'A viewer may not make changes in sandbox' });
  });

  it('answers a key of another account as one that does not exist', () => {
    expect(revocationRefusal(keys, 'key_elsewhere', 'owner')).toEqual({ kind: 'not_found', message: 'Api key not found' });
  });
});

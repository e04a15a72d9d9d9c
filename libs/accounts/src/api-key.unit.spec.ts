import { ApiKeyIssuedData } from '@pixauto/contracts';
import { notFound, validation } from '@pixauto/errors';
import { fold } from '@pixauto/event-store';
import { DeciderSpecification } from '@pixauto/event-store/testing';
import { apiKey, ApiKeyEvent, hashApiKey, newApiKey } from './api-key';

const key: ApiKeyIssuedData = {
  key_id: 'key_0123456789abcdef01234567',
  account_id: '7f0c1a2b-0000-4000-8000-000000000001',
  key_hash: hashApiKey('pix_test_secret'),
  environment: 'sandbox',
  read_only: false,
  transactions: true,
};
const issued: ApiKeyEvent = { type: 'api_key.issued', data: key };
const revoked: ApiKeyEvent = { type: 'api_key.revoked', data: { key_id: key.key_id } };
const given = DeciderSpecification.for(apiKey);

describe('api key: issuing', () => {
  it('issues a key once, active', () => {
    given().when({ type: 'IssueApiKey', data: key }).then([issued]);
    expect(fold(apiKey, [issued])).toEqual({ status: 'active', key });
  });

  it('refuses to issue a key id that was already issued, even once revoked', () => {
    given(issued).when({ type: 'IssueApiKey', data: key }).thenRefuses(validation('api key already exists'));
    given(issued, revoked).when({ type: 'IssueApiKey', data: key }).thenRefuses(validation('api key already exists'));
  });
});

describe('api key: revoking', () => {
  it('revokes an active key, which keeps what it was issued with', () => {
    given(issued).when({ type: 'RevokeApiKey' }).then([revoked]);
    expect(fold(apiKey, [issued, revoked])).toEqual({ status: 'revoked', key });
  });

  it('answers a second revocation like the first, recording nothing', () => {
    given(issued, revoked).when({ type: 'RevokeApiKey' }).then([]);
  });

  it('refuses a key that was never issued', () => {
    given().when({ type: 'RevokeApiKey' }).thenRefuses(notFound('Api key not found'));
  });
});

describe('api key: the secret', () => {
  it('is told apart by environment, and stored as its SHA-256 only', () => {
    const live = newApiKey('production');
    const test = newApiKey('sandbox');
    expect(live.apiKey).toMatch(/^pix_live_[A-Za-z0-9_-]{43}$/);
    expect(test.apiKey).toMatch(/^pix_test_[A-Za-z0-9_-]{43}$/);
    expect(live.keyId).toMatch(/^key_[0-9a-f]{24}$/);
    expect(newApiKey('sandbox').apiKey).not.toBe(test.apiKey);
    expect(hashApiKey(test.apiKey)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(test.apiKey)).toBe(hashApiKey(test.apiKey));
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { AccountEventTypes, ApiKeyIssuedData, Environment } from '@pixauto/contracts';
import { Messages, notFound, validation } from '@pixauto/errors';
import { accept, Decider, DomainEvent, reject } from '@pixauto/event-store';

// An API key (docs/decisions/api-access.md): bound to one account and one environment, revocable.

export type ApiKeyEvent =
  DomainEvent<typeof AccountEventTypes.keyIssued, ApiKeyIssuedData> | DomainEvent<typeof AccountEventTypes.keyRevoked, { key_id: string }>;

export type ApiKeyState = { status: 'none' } | { status: 'active'; key: ApiKeyIssuedData } | { status: 'revoked'; key: ApiKeyIssuedData };

export type ApiKeyCommand = { type: 'IssueApiKey'; data: ApiKeyIssuedData } | { type: 'RevokeApiKey' };

export const API_KEY_STREAM = 'api_key';
export const apiKeyStreamId = (keyId: string): string => `${API_KEY_STREAM}:${keyId}`;

/** Keys are 256 random bits, so a fast hash is enough to store them: nothing to brute-force. */
export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey).digest('hex');

/** The prefix tells a person which environment a key is for; the gateway does not rely on it. */
export function newApiKey(environment: Environment): { keyId: string; apiKey: string } {
  return {
    keyId: `key_${randomBytes(12).toString('hex')}`,
    apiKey: `pix_${environment === 'production' ? 'live' : 'test'}_${randomBytes(32).toString('base64url')}`,
  };
}

export const apiKey: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'IssueApiKey':
        return state.status === 'none' ? accept({ type: AccountEventTypes.keyIssued, data: command.data }) : reject(validation('api key already exists'));
      case 'RevokeApiKey':
        if (state.status === 'none') return reject(notFound(Messages.admin.apiKeyNotFound));
        // Revoking twice is answered like once.
        return state.status === 'revoked' ? accept() : accept({ type: AccountEventTypes.keyRevoked, data: { key_id: state.key.key_id } });
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case AccountEventTypes.keyIssued:
        return { status: 'active', key: event.data };
      case AccountEventTypes.keyRevoked:
        return state.status === 'none' ? state : { status: 'revoked', key: state.key };
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
};

import {
  AccountChangedData,
  AccountEventTypes,
  AccountOpenedData,
  DEFAULT_RATE_LIMITS,
  Environment,
  RateLimits,
  rotatedEnvironmentOf,
  WEBHOOK_SECRET_OVERLAP_MS,
  WebhookSecretRotatedData,
} from '@pixauto/contracts';
import { Messages, notFound, validation } from '@pixauto/errors';
import { accept, Decider, DomainEvent, reject } from '@pixauto/event-store';

// A merchant account: who it is, its wallet, its cash-in bank and its banking credentials.

export type AccountEvent =
  | DomainEvent<typeof AccountEventTypes.opened, AccountOpenedData>
  | DomainEvent<typeof AccountEventTypes.changed, AccountChangedData>
  | DomainEvent<typeof AccountEventTypes.webhookSecretRotated, WebhookSecretRotatedData>;

export type AccountState = { status: 'none' } | { status: 'open'; account: AccountOpenedData };

export type AccountCommand =
  | { type: 'OpenAccount'; data: AccountOpenedData }
  /** `rate_limit` may name one environment only: the other keeps its limit. */
  | { type: 'ChangeAccount'; data: Omit<AccountChangedData, 'rate_limit'> & { rate_limit?: Partial<RateLimits> } }
  /** `at`: the Clock's now; the environment's replaced secret keeps signing its webhooks until 24 hours after it. */
  | { type: 'RotateWebhookSecret'; environment: Environment; webhook_secret: string; at: Date }
  /** A sandbox secret for an account opened when one secret signed both environments; nothing when it has one. */
  | { type: 'IssueSandboxWebhookSecret'; webhook_secret: string };

export const ACCOUNT_STREAM = 'account';
export const accountStreamId = (accountId: string): string => `${ACCOUNT_STREAM}:${accountId}`;

/** An account's limits, the defaults for one opened before rate limits existed. */
export const rateLimitsOf = (account: Pick<AccountOpenedData, 'rate_limit'>): RateLimits => account.rate_limit ?? { ...DEFAULT_RATE_LIMITS };

/** The secret that signs an environment's webhooks; a sandbox one is undefined until issued to an account opened before each had its own. */
export const webhookSecretOf = (account: AccountOpenedData, environment: Environment): string | undefined =>
  environment === 'sandbox' ? account.sandbox_webhook_secret : account.webhook_secret;

/** Only what actually differs is recorded, so a repeated PATCH records nothing. */
function changesOf(current: AccountOpenedData, requested: Extract<AccountCommand, { type: 'ChangeAccount' }>['data']): AccountChangedData {
  const changes: AccountChangedData = {};
  if (requested.rate_limit !== undefined) {
    const limits = { ...rateLimitsOf(current), ...requested.rate_limit };
    if (JSON.stringify(limits) !== JSON.stringify(rateLimitsOf(current))) changes.rate_limit = limits;
  }
  if (requested.wallet !== undefined && requested.wallet !== current.wallet) changes.wallet = requested.wallet;
  if (requested.cashin_provider !== undefined && requested.cashin_provider !== current.cashin_provider) changes.cashin_provider = requested.cashin_provider;
  if (requested.providers !== undefined && JSON.stringify(requested.providers) !== JSON.stringify(current.providers)) changes.providers = requested.providers;
  return changes;
}

export const account: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    switch (command.type) {
      case 'OpenAccount':
        return state.status === 'none' ? accept({ type: AccountEventTypes.opened, data: command.data }) : reject(validation('account already exists'));
      case 'ChangeAccount': {
        if (state.status === 'none') return reject(notFound(Messages.admin.accountNotFound));
        const changes = changesOf(state.account, command.data);
        return Object.keys(changes).length === 0 ? accept() : accept({ type: AccountEventTypes.changed, data: changes });
      }
      case 'RotateWebhookSecret': {
        if (state.status === 'none') return reject(notFound(Messages.admin.accountNotFound));
        const previous = webhookSecretOf(state.account, command.environment) ?? null;
        return accept({
          type: AccountEventTypes.webhookSecretRotated,
          data: {
            environment: command.environment,
            webhook_secret: command.webhook_secret,
            previous_secret: previous,
            previous_valid_until: previous === null ? null : new Date(command.at.getTime() + WEBHOOK_SECRET_OVERLAP_MS).toISOString(),
          },
        });
      }
      case 'IssueSandboxWebhookSecret':
        if (state.status === 'none') return reject(notFound(Messages.admin.accountNotFound));
        if (state.account.sandbox_webhook_secret !== undefined) return accept();
        // No overlap with the production secret: a sandbox webhook signed with it is exactly what a production receiver must refuse.
        return accept({
          type: AccountEventTypes.webhookSecretRotated,
          data: { environment: 'sandbox', webhook_secret: command.webhook_secret, previous_secret: null, previous_valid_until: null },
        });
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case AccountEventTypes.opened:
        return { status: 'open', account: event.data };
      case AccountEventTypes.changed:
        return state.status === 'open' ? { status: 'open', account: { ...state.account, ...event.data } } : state;
      case AccountEventTypes.webhookSecretRotated: {
        if (state.status !== 'open') return state;
        const field = rotatedEnvironmentOf(event.data) === 'sandbox' ? 'sandbox_webhook_secret' : 'webhook_secret';
        return { status: 'open', account: { ...state.account, [field]: event.data.webhook_secret } };
      }
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
};

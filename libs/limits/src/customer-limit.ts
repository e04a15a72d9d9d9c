import { createHmac } from 'node:crypto';
import { CustomerLimitData, LimitEventTypes, Tenant } from '@pixauto/contracts';
import { Messages, validation } from '@pixauto/errors';
import { accept, Decider, DomainEvent, reject } from '@pixauto/event-store';

// One customer limit: a (document, type) pair of one tenant (docs/decisions/limits.md).

export type CustomerLimitEvent =
  DomainEvent<typeof LimitEventTypes.created, CustomerLimitData> | DomainEvent<typeof LimitEventTypes.updated, CustomerLimitData>;

export type CustomerLimitState = { status: 'absent' } | { status: 'configured'; limit: CustomerLimitData };

/** POST /v2/limits sets the whole limit: a second POST for the same document and type replaces it. */
export type CustomerLimitCommand = { type: 'SetCustomerLimit'; data: CustomerLimitData };

export const CUSTOMER_LIMIT_STREAM = 'customer_limit';

/**
 * A customer's CPF or CNPJ never appears in a stream id, and so in a Kafka key (docs/decisions/secrets.md): a keyed HMAC of it
 * stands in, stable for as long as the key is (DOCUMENT_KEY never rotates), so a customer's limit stays one stream.
 */
export const documentDigest = (key: Buffer, documentNumber: string): string => createHmac('sha256', key).update(documentNumber).digest('base64url');

/** DOCUMENT_KEY: base64 of at least 32 random bytes; limits-service does not start without it. */
export function documentKeyOf(env: NodeJS.ProcessEnv = process.env): Buffer {
  const key = Buffer.from(env.DOCUMENT_KEY ?? '', 'base64');
  if (key.length < 32)
    throw new Error('DOCUMENT_KEY must be the base64 of at least 32 random bytes, never changed once limits exist (docs/operations.md "Secrets")');
  return key;
}

export const customerLimitStreamId = (tenant: Tenant, digest: string, limitType: string): string =>
  `${CUSTOMER_LIMIT_STREAM}:${tenant.accountId}:${tenant.environment}:${digest}:${limitType}`;

const sameLimit = (a: CustomerLimitData, b: CustomerLimitData): boolean =>
  a.mechanism === b.mechanism && a.amount_centavos === b.amount_centavos && a.quantity === b.quantity && a.details === b.details;

/** Only positive values are accepted, whatever the edge let through. */
function problemsOf(limit: CustomerLimitData): string[] {
  if (limit.mechanism === 'amount')
    return limit.amount_centavos !== null && limit.amount_centavos > 0 && limit.quantity === null ? [] : [Messages.limits.amountPositive];
  return limit.quantity !== null && Number.isInteger(limit.quantity) && limit.quantity > 0 && limit.amount_centavos === null
    ? []
    : [Messages.limits.quantityPositive];
}

export const customerLimit: Decider<CustomerLimitCommand, CustomerLimitEvent, CustomerLimitState> = {
  initialState: { status: 'absent' },

  decide(command, state) {
    switch (command.type) {
      case 'SetCustomerLimit': {
        const problems = problemsOf(command.data);
        if (problems.length > 0) return reject(validation(...problems));
        if (state.status === 'absent') return accept({ type: LimitEventTypes.created, data: command.data });
        // Setting the limit it already has changes nothing: no event, updated_at stays.
        if (sameLimit(state.limit, command.data)) return accept();
        return accept({ type: LimitEventTypes.updated, data: command.data });
      }
      default: {
        const unreachable: never = command.type;
        return unreachable;
      }
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case LimitEventTypes.created:
      case LimitEventTypes.updated:
        return { status: 'configured', limit: event.data };
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
};

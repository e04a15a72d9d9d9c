import { validation } from '@pixauto/errors';
import { Validated } from './validation';

// The one rule for endpoints that take exactly one of several identifiers (`id` or `transaction_id`, and `refund_id`
// beside them for refund receipts), in the query or in the body.

/**
 * An identifier is given when it was sent with a value other than the empty string. `?id=&transaction_id=abc` names
 * the charge by its transaction_id, as the merchant means; `{"id": "", ...}` in a body alike. Anything else sent is
 * given, whitespace and null included, and then meets the identifier's own check ('query.id must be a positive integer').
 */
export const isGiven = (value: unknown): boolean => value !== undefined && value !== '';

/** The endpoint's own words for none and for several: they differ between endpoints and are quoted from the spec. */
export interface OneIdentifierMessages {
  required: string;
  onlyOne: string;
}

/** The identifier a request names, and the value sent for it (not yet checked: each endpoint checks its own). */
export interface NamedIdentifier<K extends string> {
  key: K;
  value: unknown;
}

/** Which one of `keys` the request (its query, or its body) names: exactly one must be given, else the endpoint's refusal. */
export function oneIdentifier<K extends string>(sent: unknown, keys: readonly K[], messages: OneIdentifierMessages): Validated<NamedIdentifier<K>> {
  const fields = typeof sent === 'object' && sent !== null ? (sent as Record<string, unknown>) : {};
  const given = keys.filter((key) => isGiven(fields[key]));
  if (given.length === 0) return { ok: false, refusal: validation(messages.required) };
  if (given.length > 1) return { ok: false, refusal: validation(messages.onlyOne) };
  return { ok: true, value: { key: given[0], value: fields[given[0]] } };
}

import { LimitMechanism, LimitType } from './limit.types';

/** Payload of the customer-limit events on Topics.limits (asyncapi.yaml). Money in integer centavos. */
export interface CustomerLimitData {
  document_number: string;
  limit_type: LimitType;
  mechanism: LimitMechanism;
  amount_centavos: number | null;
  quantity: number | null;
  details: string | null;
}

export const LimitEventTypes = {
  created: 'customer_limit.created',
  updated: 'customer_limit.updated',
} as const;

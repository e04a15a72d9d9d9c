export const LIMIT_TYPES = ['cashin', 'cashout'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];
export const LIMIT_MECHANISMS = ['amount', 'quantity'] as const;
export type LimitMechanism = (typeof LIMIT_MECHANISMS)[number];

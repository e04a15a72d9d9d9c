export const LIMIT_TYPES = ['cashin', 'cashout'] as const;
/** `cashin`: Pix charges the customer pays. `cashout`: payouts to the customer. */
export type LimitType = (typeof LIMIT_TYPES)[number];
export const LIMIT_MECHANISMS = ['amount', 'quantity'] as const;
/** `amount`: a cap on the value of each transaction. `quantity`: a cap on the number of transactions per day (Brasília time). */
export type LimitMechanism = (typeof LIMIT_MECHANISMS)[number];

export * from './lookup-queries';
export * from './payout-lookups';
export * from './payout-lookups.migration';
export * from './daily-totals';

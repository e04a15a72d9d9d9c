export * from './payout.events';
export * from './create-payout.dto';
export * from './create-payout';
export * from './payout.response';
export * from './payout-return';
export * from './payout-receipt';

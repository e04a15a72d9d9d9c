export * from './payout.events';

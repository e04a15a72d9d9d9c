export * from './charge.types';
export * from './charge.events';
export * from './charge-requests';

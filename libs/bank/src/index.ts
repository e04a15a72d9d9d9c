export * from './wire';
export * from './vocabulary';
export * from './problem';
export type { BankConnectionOptions } from './bank-http';
export { SIMULATED_NOW_HEADER } from './bank-http';
export * from './bank-client';
export * from './simulated-payer';
export * from './banks';
export * from './callback-registration';

export * from './tenant';
export * from './events';
export * from './validation';
export * from './limits';
export * from './accounts';

export * from './tenant';
export * from './service-rpc';
export * from './events';
export * from './validation';
export * from './limits';
export * from './accounts';
export * from './recurrences';
export * from './solicitations';

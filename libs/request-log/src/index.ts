export * from './console-user';
export * from './request-log';
export * from './request-log.migration';
export * from './request-log-store';
export * from './request-log-writer';

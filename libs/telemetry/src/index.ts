export * from './logger';
export * from './redaction';
export * from './request-context';
export * from './tracing';

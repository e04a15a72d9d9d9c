export * from './config';
export * from './database';
export * from './http';
export * from './event-sourcing.module';
export * from './rpc';
export * from './periodic-task';
export * from './sandbox-clock';
export * from './concurrency';

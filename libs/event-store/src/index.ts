export * from './decider';
export * from './sql';
export * from './stored-event';
export * from './event-store';
export * from './outbox-publisher';
export * from './idempotent-consumer';
export * from './rebuild';
export * from './migrations';

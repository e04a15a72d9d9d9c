export * from './kafka';
export * from './subscriber';

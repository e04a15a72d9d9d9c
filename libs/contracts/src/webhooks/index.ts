export * from './webhook-delivery';
export * from './webhook-events';

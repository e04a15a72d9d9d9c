export * from './webhook-delivery';

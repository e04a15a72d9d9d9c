export * from './webhook-delivery';
export * from './webhook-events';
export * from './test-event.dto';
export * from './sandbox-listen';
export * from './webhook-endpoint';

export * from './metrics';
export * from './labels';

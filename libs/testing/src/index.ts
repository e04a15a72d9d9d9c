export * from './eventually';
export * from './counting-proxy';
export * from './documents';

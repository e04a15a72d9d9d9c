export * from './eventually';
export * from './counting-proxy';

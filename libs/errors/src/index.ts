export * from './refusal';
export * from './http';
export * from './messages';
export * from './dependency';

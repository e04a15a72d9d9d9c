export * from './account.dto';
export * from './account.events';

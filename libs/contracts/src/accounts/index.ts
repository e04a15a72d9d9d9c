export * from './account.dto';
export * from './account.events';
export * from './account.types';
export * from './console-user.dto';

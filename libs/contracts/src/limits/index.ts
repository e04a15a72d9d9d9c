export * from './limit.types';
export * from './limit.dto';
export * from './limit.events';

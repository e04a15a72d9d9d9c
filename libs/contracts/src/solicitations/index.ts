export * from './solicitation.types';
export * from './solicitation.dto';
export * from './solicitation';
export * from './solicitation.events';

export * from './recurrence.types';
export * from './recurrence.response';
export * from './create-recurrence.dto';
export * from './create-recurrence';
export * from './update-recurrence.dto';
export * from './update-recurrence';
export * from './list-recurrences';
export * from './recurrence.events';

export * from './recurrence';
export * from './read-model/recurrences.migration';
export * from './read-model/recurrences-activation.migration';
export * from './read-model/recurrences.projection';

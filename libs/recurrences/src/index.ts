export * from './recurrence';
export * from './read-model/recurrences.migration';
export * from './read-model/recurrences-activation.migration';
export * from './read-model/recurrences.projection';
export * from './charge';
export * from './read-model/recurrence-charges.migration';
export * from './read-model/charges.projection';
export * from './cycle-plan';

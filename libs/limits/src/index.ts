export * from './customer-limit';
export * from './read-model/customer-limits.migration';
export * from './read-model/customer-limits.projection';

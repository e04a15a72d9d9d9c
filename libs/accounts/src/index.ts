export * from './account';
export * from './api-key';
export * from './api-key-directory';
export * from './read-model/accounts.migration';
export * from './read-model/accounts.projection';
export * from './accounts-admin';
export * from './account-profiles';
export * from './console-users';

// Test support only, for any project's tests: @pixauto/event-store/testing. Never imported by production code.
export * from './decider-specification';
export * from './test-database';

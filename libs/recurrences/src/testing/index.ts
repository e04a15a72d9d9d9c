// Test support only, for any project's tests: @pixauto/recurrences/testing.
export * from './recurrence-fixture';

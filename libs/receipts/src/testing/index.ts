// Test support only, for any project's tests: @pixauto/receipts/testing.
export * from './pdf-text';

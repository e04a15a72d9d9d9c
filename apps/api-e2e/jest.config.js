// End-to-end: the built apps run as real processes against real PostgreSQL, Redis and Kafka; tests speak HTTP.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e.spec.ts'],
  testTimeout: 120000,
};

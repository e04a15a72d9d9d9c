// End-to-end: the built apps run as real processes against real PostgreSQL, Redis and Kafka; tests speak HTTP.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e.spec.ts'],
  // One system shared by the files that ask for it (`@shared-system`), run first; the others each start their own.
  testEnvironment: '<rootDir>/src/support/e2e-environment.cjs',
  testSequencer: '<rootDir>/src/support/e2e-sequencer.cjs',
  globalTeardown: '<rootDir>/src/support/e2e-teardown.cjs',
  // Above system.cjs's start-up bound (180 s), so that a beforeAll starting a system fails with its own error (and
  // stops what it started) rather than Jest's timeout.
  testTimeout: 240000,
};

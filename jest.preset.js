// Shared Jest settings: SWC compiles TypeScript (with decorator metadata, which NestJS needs),
// and @pixauto/* resolves to the libs' sources so tests never depend on a build.
const path = require('node:path');

const swc = {
  swcrc: false,
  sourceMaps: 'inline',
  module: { type: 'commonjs' },
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    keepClassNames: true,
  },
};

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    // A lib's test helpers (@pixauto/event-store/testing), then its public entry point (@pixauto/event-store).
    // The operator API's client, kept out of the merchants' package (@pixauto/sdk).
    '^@pixauto/api-client/admin$': path.join(__dirname, 'libs/api-client/src/admin.ts'),
    '^@pixauto/([^/]+)/testing$': path.join(__dirname, 'libs/$1/src/testing/index.ts'),
    '^@pixauto/([^/]+)$': path.join(__dirname, 'libs/$1/src/index.ts'),
  },
  testTimeout: 30000,
  // A finished run that does not exit names what is still open and fails, instead of hanging (deploy/scripts/jest-exit-guard.cjs).
  reporters: ['default', path.join(__dirname, 'deploy/scripts/jest-exit-guard.cjs')],
};

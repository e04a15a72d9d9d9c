module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api-gateway',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};

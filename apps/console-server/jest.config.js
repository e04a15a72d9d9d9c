module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'console-server',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};

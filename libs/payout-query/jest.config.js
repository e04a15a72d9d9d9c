module.exports = { ...require('../../jest.preset.js'), displayName: 'payout-query', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };

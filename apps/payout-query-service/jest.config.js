module.exports = { ...require('../../jest.preset.js'), displayName: 'payout-query-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };

module.exports = { ...require('../../jest.preset.js'), displayName: 'payments-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };

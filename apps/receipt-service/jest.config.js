module.exports = { ...require('../../jest.preset.js'), displayName: 'receipt-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
